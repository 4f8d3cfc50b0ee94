import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_TYPE_VALUE_TOOL_ERROR } from '../../otel/semconv.js';
import { ToolResultError } from '../../tool-result-error.js';

/**
 * What a listener receives when an MCP tool returns `isError: true` instead of throwing: MCP's way of
 * reporting a tool failure to the model. It counts as an error (`error.type` = `tool_error`), and
 * `result` keeps the tool result so that "rethrow" hands it back unchanged.
 */
export class McpToolError extends ToolResultError<CallToolResult> {
  override readonly name = 'McpToolError' as const;
  override readonly code = ERROR_TYPE_VALUE_TOOL_ERROR;

  constructor(toolName: string, result: CallToolResult) {
    super(toolName, result, resultText(result) ?? `MCP tool '${toolName}' returned isError: true`);
  }
}

/** The listener's view of a tool result: an `McpToolError` when it reports a failure. */
export function mcpToolFailure(toolName: string, value: unknown): McpToolError | undefined {
  return isErrorResult(value) ? new McpToolError(toolName, value) : undefined;
}

/** The tool result the model sees when the listener reports a failure. */
export function reportedResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isErrorResult(value: unknown): value is CallToolResult {
  return value !== null && typeof value === 'object' && (value as { isError?: unknown }).isError === true;
}

/** The text content of a result, so that the error message is what the tool said. */
function resultText(result: CallToolResult): string | undefined {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.flatMap((part) =>
    part !== null && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string'
      ? [part.text]
      : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}
