import { context, type Span, trace } from '@opentelemetry/api';
import { logger } from '../../internal/logger.js';
import type { OperationTelemetry } from '../../otel/operation-telemetry.js';
import { ATTR_JSONRPC_REQUEST_ID, MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { McpSessionFacts } from './attributes.js';
import { keepVersionOf } from './negotiated-version.js';
import { observeOperation } from './operation-span.js';
import { messageWithTraceContext } from './propagation.js';
import { isMergePending, mergesNotification, nextRequestId, replaceMethod } from './protocol-seam.js';

/*
 * Every message an instrumented client sends carries its trace context: the client's own
 * `request()` and `notification()` (which `callTool`, `listTools`, `ping`, `connect`'s `initialize`
 * and `notifications/initialized`, ... all go through, on both SDK lines) are replaced on the instance
 * by functions that hand the original the message with the active context injected into its
 * `params._meta` (a stand-in, the app's objects untouched).
 *
 * A `tools/call` is injected by the observed `callTool` itself (its params, with its span's context),
 * not here. Its request is where the client learns its JSON-RPC id: the SDK takes it from
 * its counter synchronously inside `request()`, so the counter moving by exactly one across the call
 * says which id this request got (protocol-seam.ts's `nextRequestId`); the id is set on the call's span.
 *
 * With an OpenTelemetry listener (`telemetry`), every other request and notification gets its own
 * CLIENT span (operation-span.ts), the one injected into its `_meta`, with its request id the same way.
 */

/**
 * The span of the observed `callTool` running now: the SDK sends the request inside it, synchronously
 * (1.x), and the id goes on it with no mark kept. Cleared once its id is recorded.
 */
let sendingSpan: Span | undefined;
/**
 * The spans of observed `callTool` calls whose request was not sent while `callTool` ran (an SDK
 * that awaits something first): marked, the id goes on them when the request is sent. Only this
 * package's spans: never the app's span around a `request()` of its own.
 */
const toolsCallSpans = new WeakSet<Span>();

/**
 * Calls `callTool` (the SDK's) on `client` with `args`, `span` (the call's span, the active one) as
 * the span the request id belongs to; marked for later only when the call did not send the request
 * itself. The call's parts as arguments, not a closure: this runs at every tool call.
 */
export function sendingToolCall(
  span: Span | undefined,
  callTool: (this: unknown, ...args: unknown[]) => unknown,
  client: unknown,
  args: unknown[],
): unknown {
  if (span === undefined) return callTool.apply(client, args);
  const outer = sendingSpan;
  sendingSpan = span;
  try {
    return callTool.apply(client, args);
  } finally {
    if (sendingSpan === span) toolsCallSpans.add(span);
    sendingSpan = outer;
  }
}

export type Send = (this: unknown, message: unknown, ...rest: unknown[]) => unknown;

/** The other side of a client's operations: a session's facts (transport, session id, protocol version). */
export interface ClientOperations {
  readonly telemetry: OperationTelemetry;
  readonly facts: () => McpSessionFacts;
}

/** Replaces `request` and `notification` of `client` (own properties) by context-injecting ones. */
export function injectIntoMessages(client: object, operations?: ClientOperations): void {
  replaceMethod(
    client,
    'request',
    (send) =>
      function requestWithContext(this: unknown, message: unknown, ...rest: unknown[]) {
        return sendRequest(this as object, send, message, rest, operations);
      },
  );
  replaceMethod(
    client,
    'notification',
    (send) =>
      function notificationWithContext(this: unknown, message: unknown, ...rest: unknown[]) {
        return sendNotification(this as object, send, message, rest, operations);
      },
  );
}

/**
 * `send` (the client's original `request`) called on `client` with `message` carrying the active
 * context, in its own CLIENT span with `operations`; a `tools/call` as it is (see above).
 */
export function sendRequest(
  client: object,
  send: Send,
  message: unknown,
  rest: readonly unknown[],
  operations: ClientOperations | undefined,
): unknown {
  if (message === null || typeof message !== 'object') return send.call(client, message, ...rest);
  const method = (message as { method?: unknown }).method;
  // a tools/call's params already carry the context of its span (instrument-client.ts)
  if (method !== MCP_METHOD_NAME_VALUE_TOOLS_CALL) {
    const sendWithContext = (span: Span | undefined) => {
      const before = nextRequestId(client);
      const sent = send.call(client, messageWithTraceContext(message), ...rest);
      if (span !== undefined) setRequestId(span, before, nextRequestId(client));
      if (method === 'initialize') keepVersionOf(client, sent);
      return sent;
    };
    if (operations === undefined || typeof method !== 'string') return sendWithContext(undefined);
    return observeOperation(operations.telemetry, clientOperation(operations, method, message), sendWithContext);
  }
  const before = nextRequestId(client);
  const sent = send.call(client, message, ...rest);
  recordRequestId(before, nextRequestId(client));
  return sent;
}

/**
 * `send` (the client's original `notification`) called on `client` with `message` carrying the active
 * context; a notification the SDK merges as it is (see `sendMerged`).
 */
export function sendNotification(
  client: object,
  send: Send,
  message: unknown,
  rest: readonly unknown[],
  operations: ClientOperations | undefined,
): unknown {
  if (message === null || typeof message !== 'object') return send.call(client, message, ...rest);
  if (mergesNotification(client, message, rest[0])) return sendMerged(client, send, message, rest, operations);
  const method = (message as { method?: unknown }).method;
  if (operations === undefined || typeof method !== 'string') {
    return send.call(client, messageWithTraceContext(message), ...rest);
  }
  return observeOperation(operations.telemetry, clientOperation(operations, method, message), () =>
    send.call(client, messageWithTraceContext(message), ...rest),
  );
}

/**
 * A notification the SDK merges with the others of its method sent in the same tick
 * (`debouncedNotificationMethods`: McpServer's `list_changed` of a burst of registrations). The SDK
 * merges only a notification without params, so it is sent as it is, without the trace context:
 * with `params._meta` it would never be merged, and each client would get, and act on, every one of
 * them. One message stands for several calls, each in its own context: it carries none of them
 * (docs/decisions.md). With `operations`, it is one CLIENT span as it is one message: the call that
 * schedules it; a call merged into one already waiting adds nothing to the wire, nor a span.
 */
function sendMerged(
  client: object,
  send: Send,
  message: object,
  rest: readonly unknown[],
  operations: ClientOperations | undefined,
): unknown {
  const method = (message as { method?: unknown }).method;
  if (operations === undefined || typeof method !== 'string' || isMergePending(client, method)) {
    return send.call(client, message, ...rest);
  }
  return observeOperation(operations.telemetry, clientOperation(operations, method, message), () =>
    send.call(client, message, ...rest),
  );
}

function clientOperation(operations: ClientOperations, method: string, message: object) {
  let params: unknown;
  try {
    params = (message as { params?: unknown }).params;
  } catch {
    params = undefined;
  }
  return { side: 'client', method, params, session: operations.facts(), parent: context.active() } as const;
}

function recordRequestId(before: unknown, after: unknown): void {
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  if (span === sendingSpan) sendingSpan = undefined;
  else if (!toolsCallSpans.has(span)) return;
  setRequestId(span, before, after);
}

function setRequestId(span: Span, before: unknown, after: unknown): void {
  if (typeof before !== 'number' || after !== before + 1) return; // not sent, or not by this counter
  try {
    span.setAttribute(ATTR_JSONRPC_REQUEST_ID, String(before));
  } catch (error) {
    logger.error('could not record jsonrpc.request.id', error);
  }
}
