import { ToolResultError } from '../../tool-result-error.js';

/** What the SDK passes to `setError` of the current tracing span when a tool fails non-fatally. */
export interface SdkToolFailure {
  readonly message?: unknown;
  readonly data?: { readonly error?: unknown; readonly [key: string]: unknown };
}

/**
 * What a listener receives when a `FunctionTool` failed but the SDK turned the failure into the tool
 * output (its `errorFunction`, by default "An error occurred while running the tool..."): the
 * thrown value itself never leaves the SDK's `tool()` closure. `result` (also `output`) is what the
 * SDK produced, so that "rethrow" returns it unchanged.
 */
export class FunctionToolError extends ToolResultError<unknown> {
  override readonly name = 'FunctionToolError' as const;

  constructor(toolName: string, output: unknown, failure: SdkToolFailure | undefined) {
    super(toolName, output, failureMessage(toolName, failure));
  }

  /** The output the SDK's errorFunction made of the failure (the same as `result`). */
  get output(): unknown {
    return this.result;
  }
}

/** The SDK's own error text (redacted unless the run includes sensitive data), else a fixed one. */
function failureMessage(toolName: string, failure: SdkToolFailure | undefined): string {
  const detail = failure?.data?.error;
  if (typeof detail === 'string' && detail.length > 0) return detail;
  if (typeof failure?.message === 'string' && failure.message.length > 0) return failure.message;
  return `Function tool '${toolName}' failed`;
}
