import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callWithResultFailures } from '../../internal/call-with-result-failures.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../../tool-callback.js';
import { isErrorResult, McpToolError, reportedResult } from './tool-error.js';

/** What both sides (server and client) know about one `tools/call`. */
export interface McpCall<Result> {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly input: unknown;
  readonly toolContext: ToolContext;
  /** Runs the call as the SDK would without instrumentation. */
  readonly run: () => Result | PromiseLike<Result>;
}

/**
 * Runs one MCP tool call through the decorator. An `isError: true` result becomes an `McpToolError`
 * for the listener; a reported failure becomes an `isError: true` text result; a rethrown
 * failure is what the SDK would have seen without us: the original result, or the original throw.
 */
export async function observeMcpCall<Result>(
  call: McpCall<Result>,
  listener: ToolCallListener<unknown>,
): Promise<Result | CallToolResult> {
  const outcome = await callWithResultFailures<Result>(
    {
      ...call,
      run: async () => {
        const value = await call.run();
        return isErrorResult(value) ? { value, failure: new McpToolError(call.definition.name, value) } : { value };
      },
    },
    listener,
  );
  return outcome.reported ? reportedResult(outcome.text) : outcome.value;
}

/** The span attributes MCP adds to every tool call (OpenTelemetry MCP semantic conventions). */
export function mcpAttributes(sessionId: unknown): Readonly<Record<string, string>> {
  return typeof sessionId === 'string' && sessionId.length > 0
    ? { 'gen_ai.tool.type': 'extension', 'mcp.method.name': 'tools/call', 'mcp.session.id': sessionId }
    : { 'gen_ai.tool.type': 'extension', 'mcp.method.name': 'tools/call' };
}
