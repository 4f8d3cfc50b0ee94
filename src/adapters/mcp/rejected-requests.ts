import { context } from '@opentelemetry/api';
import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import { MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { ToolCallListener, ToolCallRejection } from '../../tool-call-listener.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import type { McpSessionFacts } from './attributes.js';
import { mcpAttributes } from './attributes.js';
import { httpPeerOf } from './http-peer.js';
import { extractTraceContext } from './propagation.js';
import { onRequestHandlers } from './protocol-seam.js';
import { rejectedServerCall } from './remote-call.js';
import { isMarkedRequest, markRequest, requestFactsOf, requestOfHandlerExtra, sessionIdOf } from './server-seam.js';
import { settleTaskCall } from './task-tools.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';
import { methodNotFound } from './unhandled-requests.js';

/*
 * A `tools/call` McpServer answers without running a tool: an unknown (or disabled) tool, arguments
 * that fail the input schema. The tool's own hook (instrument-server.ts) never runs for it, so the
 * `tools/call` request handler McpServer registers on its low-level Server (with its first tool) is
 * wrapped, when it is registered (protocol-seam.ts): when the request settles and no tool ran for it,
 * what McpServer answered is observed as a rejected call (`ToolCallInfo.rejection`: the model called
 * a tool wrong), a SERVER span `tools/call {tool}` in the client's trace with the failure recorded as
 * the conventions ask (a JSON-RPC error answer: its code as `error.type` and `rpc.response.status_code`;
 * an `isError` answer: `tool_error`), and its samples of `mcp.server.operation.duration` and
 * `gen_ai.execute_tool.duration` (`tool_call.error.source` `model`).
 *
 * Which request a tool ran for is told by the object McpServer hands both the request handler and the
 * tool (1.x `extra`, 2.x `ctx`, made for the request): the tool's hook marks it (server-seam.ts).
 */

/** Called by the tool's hook with the tool's arguments: the request object is the last one. */
export function markToolRan(params: readonly unknown[]): void {
  const request = params[params.length - 1];
  if (request !== null && typeof request === 'object') markRequest(request);
}

type RequestHandler = (this: unknown, request: unknown, extra: unknown) => unknown;

export interface RejectionWatch {
  readonly lowLevel: unknown;
  readonly registry: object;
  readonly listener: ToolCallListener<unknown>;
  /** Session facts the request does not carry (transport, negotiated version). */
  readonly facts: () => Pick<McpSessionFacts, 'transport' | 'protocolVersion'>;
}

/** Wraps the low-level Server's `tools/call` handler, now or when McpServer registers it. */
export function watchRejectedToolCalls(watch: RejectionWatch): void {
  onRequestHandlers(watch.lowLevel, 'refused-tool-calls', (method, handler) =>
    method === MCP_METHOD_NAME_VALUE_TOOLS_CALL ? watchedToolsCall(watch, handler as RequestHandler) : undefined,
  );
}

function watchedToolsCall(watch: RejectionWatch, handler: RequestHandler): RequestHandler {
  return function toolsCallWatched(this: unknown, request: unknown, extra: unknown): unknown {
    const answer = handler.call(this, request, extra);
    if (extra === null || typeof extra !== 'object' || !isThenable(answer)) return answer;
    return answer.then(
      (result) =>
        settleTaskCall(extra, result, false) ??
        (isMarkedRequest(extra) ? result : settleRejected(watch, request, extra, result, false)),
      (error) =>
        settleTaskCall(extra, error, true) ??
        (isMarkedRequest(extra) ? Promise.reject(error) : settleRejected(watch, request, extra, error, true)),
    );
  };
}

function isThenable(value: unknown): value is Promise<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Observes what McpServer answered a request no tool ran for: a thrown error (an error answer) or an
 * `isError` result; anything else (a result that is not an error) is passed on as it is. Returns
 * the answer as McpServer made it, or the listener's report as an `isError` result.
 */
function settleRejected(
  watch: RejectionWatch,
  request: unknown,
  extra: object,
  answer: unknown,
  thrown: boolean,
): unknown {
  const { toolName, input } = toolCallOf(request);
  const failure = thrown ? answer : mcpToolFailure(toolName, answer);
  if (failure === undefined) return answer;
  // what the request says of itself, read as the tool's hook reads it
  const facts = requestOfHandlerExtra(input, extra);
  let reported: string | undefined;
  try {
    reported = observeRefusal(watch, toolName, input, failure, rejectionOf(watch.registry, toolName), facts);
  } catch (listenerError) {
    // a listener's own failure (the decorator does not guard listeners) replaces the answer, as for a tool
    return Promise.reject(listenerError);
  }
  if (reported !== undefined) return reportedResult(reported);
  return thrown ? Promise.reject(answer) : answer;
}

/**
 * A `tools/call` to a server with no `tools/call` handler (McpServer registers it with its first
 * tool): the SDK answers `-32601` itself (unhandled-requests.ts), and it is recorded as a call of a
 * tool the server does not have. The answer is the SDK's: a listener's report cannot replace it.
 */
export function observeUnhandledToolCall(watch: RejectionWatch, request: unknown): void {
  const { toolName, input } = toolCallOf(request);
  const facts = requestFactsOf(request);
  observeRefusal(watch, toolName, input, methodNotFound(), 'unknown_tool', {
    ...facts,
    sessionId: sessionIdOf(watch.facts().transport),
  });
}

/** What a refused request says of itself. */
interface RefusedRequest {
  readonly requestId: unknown;
  readonly meta: unknown;
  readonly sessionId: unknown;
  readonly protocolVersion?: unknown;
  readonly overHttp?: boolean;
}

/** The refusal, observed in the client's trace; the listener's report text, if it reports. */
function observeRefusal(
  watch: RejectionWatch,
  toolName: string,
  input: unknown,
  failure: unknown,
  rejection: ToolCallRejection,
  facts: RefusedRequest,
): string | undefined {
  const { parent, links } = extractTraceContext(facts.meta);
  const session = watch.facts();
  return context.with(parent, () =>
    observeRejectedCall(watch.listener, {
      toolName,
      toolCallId: undefined,
      input,
      error: failure,
      rejection,
      framework: FRAMEWORK_MCP,
      attributes: mcpAttributes({
        sessionId: facts.sessionId,
        protocolVersion: facts.protocolVersion ?? session.protocolVersion,
        transport: session.transport,
        overHttp: facts.overHttp,
        peer: httpPeerOf(context.active()),
      }),
      remote: rejectedServerCall(facts.requestId, links),
    }),
  );
}

/** A `tools/call` request's tool name (`''` when it has none) and arguments, read defensively. */
export function toolCallOf(request: unknown): { toolName: string; input: unknown } {
  try {
    const params = (request as { params?: { name?: unknown; arguments?: unknown } }).params;
    return { toolName: typeof params?.name === 'string' ? params.name : '', input: params?.arguments };
  } catch {
    return { toolName: '', input: undefined };
  }
}

/** An unknown or disabled tool is one the model may not call; a tool it may call refused its arguments. */
function rejectionOf(registry: object, toolName: string): ToolCallRejection {
  try {
    const tool = Object.hasOwn(registry, toolName)
      ? (registry as Record<string, { enabled?: unknown }>)[toolName]
      : undefined;
    return tool !== undefined && tool.enabled !== false ? 'invalid_input' : 'unknown_tool';
  } catch {
    return 'unknown_tool';
  }
}
