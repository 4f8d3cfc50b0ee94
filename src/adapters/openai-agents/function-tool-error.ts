import { markRejection } from '../../internal/rejection-mark.js';
import { ERROR_TYPE_VALUE_TOOL_ERROR } from '../../otel/semconv.js';
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
 *
 * Its `code` (the span's and the metrics' `error.type`) is `tool_error`, or, when the SDK refused
 * the call's arguments (they did not parse against the tool's schema: the model called the tool
 * wrong), `InvalidToolInputError`, the name of the SDK's own error, which stays in the SDK; its
 * `name` is then that too.
 */
export class FunctionToolError extends ToolResultError<unknown> {
  override readonly name: 'FunctionToolError' | 'InvalidToolInputError';
  override readonly code: typeof ERROR_TYPE_VALUE_TOOL_ERROR | 'InvalidToolInputError';

  constructor(toolName: string, output: unknown, failure: SdkToolFailure | undefined, invalidInput = false) {
    super(toolName, output, failureMessage(toolName, failure));
    this.name = invalidInput ? 'InvalidToolInputError' : 'FunctionToolError';
    this.code = invalidInput ? 'InvalidToolInputError' : ERROR_TYPE_VALUE_TOOL_ERROR;
    if (invalidInput) markRejection(this, 'invalid_input');
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
