import { trace } from '@opentelemetry/api';
import { observeCall } from '../../internal/observe-call.js';
import { markingRejections, markRejection } from '../../internal/rejection-mark.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition, ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { SessionAttributes } from './attributes.js';
import { sendingToolCall } from './client-messages.js';
import { protocolVersionOf, toolCallOf } from './client-seam.js';
import { isUnlisted, noteListedTools, unlistedRefusalOf } from './listed-tools.js';
import { withTraceContext } from './propagation.js';
import { replaceMethod } from './protocol-seam.js';
import { clientCall } from './remote-call.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';

/*
 * A client's tool calls: its `callTool` (replaced on the instance) observes each call as a remote
 * call (`ToolCallInfo.remote`, side `client`) and sends the call's span context in the request's
 * `params._meta` (a stand-in for the app's params, propagation.ts). The JSON-RPC request id is
 * assigned inside the SDK when the request is sent, after the listener's `beforeCall`: it is set on
 * the call's span then (client-messages.ts), not in `ToolCallInfo`. A failed call to a tool the
 * server did not list is the model's call of a tool that does not exist (listed-tools.ts).
 */

type CallTool = (this: unknown, ...args: unknown[]) => unknown;

/** A client knows a tool by its name only: its metadata is none, one frozen object for every call. */
const NO_METADATA: ToolMetadata = Object.freeze({});
const NO_TOOL: ToolDefinition = Object.freeze({ name: '' });

/** Observes every `callTool` of `client` with `listener`. */
export function observeClientToolCalls(client: object, listener: ToolCallListener<unknown>): void {
  noteListedTools(client);
  replaceMethod(client, 'callTool', (callTool) => observedCallTool(client, callTool as CallTool, listener));
}

function observedCallTool(instrumented: object, callTool: CallTool, listener: ToolCallListener<unknown>): CallTool {
  const session = new SessionAttributes();
  // the last tool's definition: a client usually calls a tool again (no object per call)
  let definition: ToolDefinition = NO_TOOL;
  return function observedCallTool(this: unknown, ...args: unknown[]) {
    const request = toolCallOf(args);
    if (request === undefined) return callTool.apply(this, args); // the SDK reports its own usage errors
    const { toolName, input, signal } = request;
    const client = this as { transport?: { sessionId?: unknown } };
    const callerSpan = trace.getActiveSpan();
    if (definition.name !== toolName) definition = Object.freeze({ name: toolName });
    // read at the start: a call of a listed tool costs nothing more
    const unlisted = isUnlisted(instrumented, toolName);
    return observeCall(
      {
        definition,
        metadata: NO_METADATA,
        input,
        toolContext: {
          signal,
          framework: FRAMEWORK_MCP,
          attributes: session.of(client.transport?.sessionId, protocolVersionOf(client), client.transport),
          remote: clientCall(),
        },
        // inside the call's span context (the listener's runInContext): that is what is injected, here
        // rather than in `request()`, so that a stand-in client (zero-code) whose `callTool` runs on
        // the original client still sends it
        run: () => {
          const span = trace.getActiveSpan();
          const sent = args.slice();
          sent[0] = withTraceContext(args[0] as object);
          // the listener's own span (not the caller's): its request id is learnt as the request is sent
          const answer = sendingToolCall(span === callerSpan ? undefined : span, callTool, this, sent);
          return unlisted ? markingRejections(answer, unlistedRefusalOf) : answer;
        },
        failureOf: (result) => {
          const failure = mcpToolFailure(toolName, result);
          // McpServer 1.x answers a tool it does not have with an isError result
          return unlisted && failure !== undefined ? markRejection(failure, 'unknown_tool') : failure;
        },
        report: reportedResult,
      },
      listener,
    ) as unknown;
  };
}
