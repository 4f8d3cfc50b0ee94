import { context } from '@opentelemetry/api';
import type { OperationTelemetry } from '../../otel/operation-telemetry.js';
import { MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { McpSessionFacts } from './attributes.js';
import { httpPeerOf } from './http-peer.js';
import { observeOperation } from './operation-span.js';
import { extractTraceContext } from './propagation.js';
import { type Handler, onNotificationHandlers, onRequestHandlers } from './protocol-seam.js';
import { requestFactsOf, requestOfHandlerExtra, sessionIdOf } from './server-seam.js';
import { boundedMethod, methodNotFound } from './unhandled-requests.js';

/*
 * The SERVER spans of every request and notification a low-level Server (or a Client, for what its
 * server sends it) handles but `tools/call` (whose span is the tool call's own, server-tool-calls.ts
 * and rejected-requests.ts): each of its handlers is wrapped, those set later too (McpServer registers
 * the `resources/*`, `prompts/*` and `completion/complete` handlers with the first resource or
 * prompt), through protocol-seam.ts. A handler is called with the request (or notification) and, for
 * a request, what McpServer hands a tool (1.x `extra`, 2.x `ctx`): the span's parent is the context of
 * the request's `_meta`, its facts the request's.
 */

export interface OperationsWatch {
  readonly lowLevel: unknown;
  readonly telemetry: OperationTelemetry;
  /** Session facts a request does not carry (transport, negotiated version). */
  readonly facts: () => Pick<McpSessionFacts, 'transport' | 'protocolVersion' | 'sessionId'>;
  /** Whether the server has (and offers) a prompt: McpServer's registry; absent on a client. */
  readonly hasPrompt?: (name: string) => boolean;
}

/** Wraps the request and notification handlers of the low-level Server, now and as they are set. */
export function watchOperations(watch: OperationsWatch): void {
  const notToolsCall = (observe: (handler: Handler) => Handler) => (method: unknown, handler: Handler) =>
    method === MCP_METHOD_NAME_VALUE_TOOLS_CALL ? undefined : observe(handler);
  onRequestHandlers(
    watch.lowLevel,
    'operations',
    notToolsCall((handler) => observedRequestHandler(watch, handler)),
  );
  onNotificationHandlers(
    watch.lowLevel,
    'operations',
    notToolsCall((handler) => observedNotificationHandler(watch, handler)),
  );
}

function observedRequestHandler(watch: OperationsWatch, handler: Handler): Handler {
  return function observedRequest(this: unknown, request: unknown, extra: unknown, ...rest: unknown[]) {
    const method = methodOf(request);
    if (method === undefined) return handler.call(this, request, extra, ...rest);
    // what the request says of itself, read as the tool's hook reads it
    const facts = requestOfHandlerExtra(undefined, extra);
    const { parent, links } = extractTraceContext(facts.meta);
    const session = watch.facts();
    return observeOperation(
      watch.telemetry,
      {
        side: 'server',
        method,
        params: paramsOf(request),
        requestId: facts.requestId ?? idOf(request),
        session: {
          sessionId: facts.sessionId,
          protocolVersion: facts.protocolVersion ?? session.protocolVersion,
          transport: session.transport,
          overHttp: facts.overHttp,
          peer: httpPeerOf(context.active()),
        },
        parent,
        links,
        hasPrompt: watch.hasPrompt,
      },
      () => handler.call(this, request, extra, ...rest),
    );
  };
}

function observedNotificationHandler(watch: OperationsWatch, handler: Handler): Handler {
  return function observedNotification(this: unknown, notification: unknown, ...rest: unknown[]) {
    const method = methodOf(notification);
    if (method === undefined) return handler.call(this, notification, ...rest);
    const params = paramsOf(notification);
    const { parent, links } = extractTraceContext(metaOf(params));
    return observeOperation(
      watch.telemetry,
      { side: 'server', method, params, session: watch.facts(), parent, links },
      () => handler.call(this, notification, ...rest),
    );
  };
}

/**
 * A request the SDK answers `-32601` without a handler (unhandled-requests.ts): a SERVER span that
 * starts and ends at once with that error (`error.type` and `rpc.response.status_code` `-32601`), in
 * the sender's trace, and its `mcp.{side}.operation.duration` sample. The method is the peer's
 * choice, so it is kept only when MCP defines it (`boundedMethod`).
 */
export function recordUnhandledRequest(watch: OperationsWatch, method: string, request: unknown): void {
  const { requestId, meta } = requestFactsOf(request);
  const { parent, links } = extractTraceContext(meta);
  const session = watch.facts();
  const known = boundedMethod(method);
  try {
    observeOperation(
      watch.telemetry,
      {
        side: 'server',
        method: known,
        params: known === method ? paramsOf(request) : undefined,
        requestId,
        session: {
          sessionId: session.sessionId ?? sessionIdOf(session.transport),
          protocolVersion: session.protocolVersion,
          transport: session.transport,
          peer: httpPeerOf(context.active()),
        },
        parent,
        links,
        hasPrompt: watch.hasPrompt,
      },
      () => {
        throw methodNotFound(); // recorded as the operation's failure; the SDK sends the answer
      },
    );
  } catch {
    // the error thrown above, once recorded
  }
}

function methodOf(message: unknown): string | undefined {
  try {
    const method = (message as { method?: unknown } | null)?.method;
    return typeof method === 'string' && method.length > 0 ? method : undefined;
  } catch {
    return undefined;
  }
}

function paramsOf(message: unknown): unknown {
  try {
    return (message as { params?: unknown }).params;
  } catch {
    return undefined;
  }
}

function idOf(message: unknown): unknown {
  try {
    return (message as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

function metaOf(params: unknown): unknown {
  try {
    return params !== null && typeof params === 'object' ? (params as { _meta?: unknown })._meta : undefined;
  } catch {
    return undefined;
  }
}
