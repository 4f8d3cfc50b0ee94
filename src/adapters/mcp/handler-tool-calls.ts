import { context } from '@opentelemetry/api';
import { type ObservedCall, observeCall } from '../../internal/observe-call.js';
import { markingRejections } from '../../internal/rejection-mark.js';
import { MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition, ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { SessionAttributes } from './attributes.js';
import { claudeToolUseCorrelation, claudeToolUseId } from './claude-tool-use-id.js';
import { httpPeerOf } from './http-peer.js';
import { extractTraceContext } from './propagation.js';
import { type Handler, onRequestHandlers } from './protocol-seam.js';
import { toolCallOf } from './rejected-requests.js';
import { handlerServerCall, refusalOf } from './remote-call.js';
import { negotiatedVersion, requestOfHandlerExtra, transportOf } from './server-seam.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';

/*
 * The tool calls of a low-level `Server` that no McpServer owns (a server written on
 * `setRequestHandler(CallToolRequestSchema, …)`, fastmcp's sessions): its `tools/call` request
 * handler is the tool. It is wrapped in the handler Map (protocol-seam.ts), so a handler set before
 * the server was instrumented (fastmcp sets it in its session's constructor) is observed as one set
 * after. Each request is one `execute_tool` call, named by the request's `params.name`, in the
 * context of its `_meta` as an McpServer's tool call is (server-tool-calls.ts).
 *
 * What the handler answers is the call's outcome: an `isError` result is a tool error; a thrown
 * error is the JSON-RPC error answer the SDK makes of it (its integer `code`, else `-32603`). There is
 * no registry to tell an unknown tool or invalid arguments before the handler runs: an answer
 * `-32601` (fastmcp's "Unknown tool") or `-32602` (invalid params) is the model's bad call, marked on
 * the error when it comes back (the decorator reads the mark before `onError`).
 */

export interface HandlerToolCalls {
  readonly lowLevel: object;
  readonly listener: ToolCallListener<unknown>;
}

/** Wraps the low-level Server's `tools/call` handler, now and whenever the app sets it. */
export function observeToolsCallHandler(watch: HandlerToolCalls): boolean {
  const session = new SessionAttributes();
  return onRequestHandlers(watch.lowLevel, 'handler-tool-calls', (method, handler) =>
    method === MCP_METHOD_NAME_VALUE_TOOLS_CALL ? observedToolsCall(watch, session, handler) : undefined,
  );
}

/** What the listener is told of a tool the server's registry does not describe: its name. */
const NO_METADATA: ToolMetadata = Object.freeze({});

function observedToolsCall(watch: HandlerToolCalls, session: SessionAttributes, handler: Handler): Handler {
  const { lowLevel, listener } = watch;
  let definition: ToolDefinition | undefined;
  return function toolsCallObserved(this: unknown, request: unknown, extra: unknown, ...rest: unknown[]) {
    const { toolName, input } = toolCallOf(request);
    // one definition object while the calls name the same tool
    if (definition === undefined || definition.name !== toolName) definition = Object.freeze({ name: toolName });
    const facts = requestOfHandlerExtra(input, extra);
    const { parent, links } = extractTraceContext(facts.meta);
    const toolUseId = claudeToolUseId(facts.meta);
    const call: ObservedCall<unknown, unknown> = {
      definition,
      metadata: NO_METADATA,
      input,
      toolContext: {
        toolCallId: toolUseId,
        correlation: claudeToolUseCorrelation(toolUseId),
        signal: facts.signal,
        framework: FRAMEWORK_MCP,
        attributes: session.of(
          facts.sessionId,
          facts.protocolVersion ?? negotiatedVersion(lowLevel),
          transportOf(lowLevel),
          facts.overHttp,
          httpPeerOf(context.active()),
        ),
        remote: handlerServerCall(facts.requestId, links),
      },
      run: () => markingRejections(handler.call(this, request, extra, ...rest), refusalOf),
      failureOf: (result: unknown) => mcpToolFailure(toolName, result),
      report: reportedResult,
    };
    return context.with(parent, observeCall, undefined, call, listener);
  };
}
