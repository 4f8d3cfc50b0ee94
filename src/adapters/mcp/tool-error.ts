import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a listener receives when an MCP tool returns `isError: true` instead of throwing: MCP's way of
 * reporting a tool failure to the model. It counts as an error (`error.type` = `tool_error`), and
 * the original result is kept so that "rethrow" can hand it back unchanged.
 */
export class McpToolError extends Error {
  override readonly name = 'McpToolError' as const;
  /** Read by the OpenTelemetry listener as `error.type`. */
  readonly code = 'tool_error' as const;

  constructor(
    readonly toolName: string,
    /** The tool result exactly as the tool (or the server) returned it. */
    readonly result: CallToolResult,
  ) {
    super(resultText(result) ?? `MCP tool '${toolName}' returned isError: true`);
  }
}

/** An MCP tool result that reports a failure. */
export function isErrorResult(value: unknown): value is CallToolResult {
  return value !== null && typeof value === 'object' && (value as { isError?: unknown }).isError === true;
}

/** The tool result the model sees when the listener reports a failure. */
export function reportedResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
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
