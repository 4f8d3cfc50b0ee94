import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { mcpAttributes } from './attributes.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';

const instrumentedClients = new WeakMap<object, ToolCallListener<unknown>>();

type CallTool = Client['callTool'];

/**
 * Observes every `callTool` of an MCP `Client`. Returns the same client; instrumenting it again is
 * a no-op (combine listeners with `ToolCallListeners.composite` instead).
 *
 * The JSON-RPC request id is assigned inside the SDK when the request is sent, after the listener's
 * `beforeCall`, so client-side calls carry no `toolCallId` (the server side has it).
 */
export function instrumentClient<McpClient extends Client, Context = unknown>(
  client: McpClient,
  listener: ToolCallListener<Context>,
): McpClient {
  if (client === null || typeof client !== 'object' || typeof client.callTool !== 'function') {
    throw new TypeError(`instrumentClient: \`client\` must be an MCP Client, got ${describe(client)}`);
  }
  assertListener(listener, 'instrumentClient');
  const existing = instrumentedClients.get(client);
  if (existing !== undefined) {
    if (existing !== listener) {
      logger.warn('instrumentClient: this Client is already instrumented; the new listener is ignored');
    }
    return client;
  }
  instrumentedClients.set(client, listener as ToolCallListener<unknown>);
  markObserved(client); // observed once: the zero-code instrumentation leaves it alone

  const callTool = client.callTool;
  const observedCallTool = function observedCallTool(this: Client, ...args: Parameters<CallTool>) {
    const [params, , options] = args;
    if (params === null || typeof params !== 'object' || typeof params.name !== 'string') {
      return callTool.apply(this, args); // the SDK reports its own usage errors
    }
    const toolName = params.name;
    return observeCall(
      {
        definition: { name: toolName },
        metadata: {},
        input: params.arguments,
        toolContext: {
          signal: options?.signal,
          framework: FRAMEWORK_MCP,
          attributes: mcpAttributes(this.transport?.sessionId),
        },
        run: () => callTool.apply(this, args),
        failureOf: (result) => mcpToolFailure(toolName, result),
        report: reportedResult,
      },
      listener,
    );
  } as CallTool;
  Object.defineProperty(client, 'callTool', { configurable: true, writable: true, value: observedCallTool });
  return client;
}
