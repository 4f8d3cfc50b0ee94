import { type Span, trace } from '@opentelemetry/api';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import { ATTR_JSONRPC_REQUEST_ID, MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { mcpAttributes } from '../mcp/attributes.js';
import { messageWithTraceContext } from '../mcp/propagation.js';
import { clientCall } from '../mcp/remote-call.js';
import { mcpToolFailure, reportedResult } from '../mcp/tool-error.js';
import {
  type AiSdkMcpClientLike,
  hasCallTool,
  nextRequestId,
  onCallTool,
  onRequest,
  sessionFactsOf,
  toolCallOf,
} from './client-seam.js';

/*
 * The AI SDK's own MCP client, observed as the MCP SDK's client is (`otel-tool-calls/mcp`): each tool
 * call a `tools/call {tool}` CLIENT span (the same names and attributes), its JSON-RPC id set once the
 * client assigned it, and every request it sends carrying the active trace context in
 * `params._meta` through the global propagator, so that a server instrumented with `instrumentServer`
 * continues the trace. An `isError` result is a failure (`error.type` `tool_error`) the AI SDK still
 * gets as it does without the adapter (under `'rethrow'`); `'report'` hands it the listener's text as
 * an `isError` result. A call from one of `tools()`' tools carries the AI SDK's call id, so that the
 * AI SDK adapter's `execute_tool` span of the same call, if any, is joined (one span per call).
 */

const instrumented = new WeakMap<object, ToolCallListener<unknown>>();
/** The spans of tool calls whose JSON-RPC id is set when their request is sent. */
const awaitingRequestId = new WeakSet<Span>();

/**
 * Observes every tool call of a client `createMCPClient` (`@ai-sdk/mcp`) returned, and sends the trace
 * context with each of its requests. Returns the same client; instrumenting it again is a no-op.
 */
export function instrumentClient<Client extends AiSdkMcpClientLike, Context = unknown>(
  client: Client,
  listener: ToolCallListener<Context>,
): Client {
  if (client === null || typeof client !== 'object' || !hasCallTool(client)) {
    throw new TypeError(`instrumentClient: \`client\` must be a client of createMCPClient(), got ${describe(client)}`);
  }
  assertListener(listener, 'instrumentClient');
  const existing = instrumented.get(client);
  if (existing !== undefined) {
    if (existing !== listener)
      logger.warn('instrumentClient: this client is already instrumented; the new listener is ignored');
    return client;
  }
  const observing = listener as ToolCallListener<unknown>;
  instrumented.set(client, observing);
  markObserved(client);
  onRequest(client, sendWithContext);
  onCallTool(
    client,
    (callTool) =>
      function observedCallTool(this: unknown, argument: unknown, ...rest: unknown[]) {
        const call = toolCallOf(argument);
        if (call === undefined) return callTool.call(this, argument, ...rest);
        const facts = sessionFactsOf(this as object);
        const callerSpan = trace.getActiveSpan();
        return observeCall(
          {
            definition: { name: call.toolName },
            metadata: {},
            input: call.input,
            toolContext: {
              toolCallId: call.toolCallId,
              signal: call.signal,
              framework: FRAMEWORK_MCP,
              attributes: mcpAttributes(facts),
              remote: clientCall(),
            },
            run: () => {
              const span = trace.getActiveSpan();
              // the listener's own span (not the caller's): its request id is set when the request is sent
              if (span !== undefined && span !== callerSpan) awaitingRequestId.add(span);
              return callTool.call(this, argument, ...rest);
            },
            failureOf: (result) => mcpToolFailure(call.toolName, result),
            report: reportedResult,
          },
          observing,
        );
      },
  );
  return client;
}

/** Sends `message` with the active context in its `params._meta`; a tools/call's id goes on its span. */
function sendWithContext(message: object, send: (message: object) => unknown, client: object): unknown {
  const span = trace.getActiveSpan();
  const before = nextRequestId(client);
  const sent = send(messageWithTraceContext(message));
  const method = (message as { method?: unknown }).method;
  if (method === MCP_METHOD_NAME_VALUE_TOOLS_CALL && span !== undefined && awaitingRequestId.has(span)) {
    awaitingRequestId.delete(span);
    if (typeof before === 'number' && nextRequestId(client) === before + 1) {
      span.setAttribute(ATTR_JSONRPC_REQUEST_ID, String(before));
    }
  }
  return sent;
}
