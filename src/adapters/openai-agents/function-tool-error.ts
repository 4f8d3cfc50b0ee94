/** What the SDK passes to `setError` of the current tracing span when a tool fails non-fatally. */
export interface SdkToolFailure {
  readonly message?: unknown;
  readonly data?: { readonly error?: unknown; readonly [key: string]: unknown };
}

/**
 * What a listener receives when a `FunctionTool` failed but the SDK turned the failure into the tool
 * output (its `errorFunction`, by default "An error occurred while running the tool..."): the
 * thrown value itself never leaves the SDK's `tool()` closure. `output` is what the SDK produced,
 * so that "rethrow" can return it unchanged.
 */
export class FunctionToolError extends Error {
  override readonly name = 'FunctionToolError' as const;
  /** Read by the OpenTelemetry listener as `error.type`. */
  readonly code = 'tool_error' as const;

  constructor(
    readonly toolName: string,
    /** The output the SDK's errorFunction made of the failure. */
    readonly output: unknown,
    failure: SdkToolFailure | undefined,
  ) {
    super(failureMessage(toolName, failure));
  }
}

/** The SDK's own error text (redacted unless the run includes sensitive data), else a fixed one. */
function failureMessage(toolName: string, failure: SdkToolFailure | undefined): string {
  const detail = failure?.data?.error;
  if (typeof detail === 'string' && detail.length > 0) return detail;
  if (typeof failure?.message === 'string' && failure.message.length > 0) return failure.message;
  return `Function tool '${toolName}' failed`;
}
