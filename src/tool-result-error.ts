/**
 * What a listener receives when a tool failed in its result rather than by throwing: an MCP
 * result with `isError: true`, the text the OpenAI Agents SDK's errorFunction made of a failure.
 * It counts as an error (`error.type` = `tool_error`, its `code`), and it keeps the framework's
 * own result, so that "rethrow" can hand it back unchanged.
 */
export class ToolResultError<Result = unknown> extends Error {
  override readonly name: string = 'ToolResultError';
  /** Read by the OpenTelemetry listener as `error.type`: `tool_error`, unless an adapter's subclass says better. */
  // the MCP conventions' value (otel/semconv.ts ERROR_TYPE_VALUE_TOOL_ERROR): the core imports no otel/
  readonly code: string = 'tool_error';

  constructor(
    readonly toolName: string,
    /** The result exactly as the tool (or its framework) returned it. */
    readonly result: Result,
    message: string,
  ) {
    super(message);
  }
}
