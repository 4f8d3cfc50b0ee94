import type { ErrorPolicyDecision } from 'otel-tool-calls';

/** Thrown by a tool when the model's arguments are wrong in a way it can fix (the schema cannot say). */
export class ToolInputError extends Error {
  override name = 'ToolInputError' as const;
}

/**
 * Input mistakes are the model's to fix: report them to it as the tool result, so it retries.
 * Anything else (an outage, a bug, an aborted call) is not: rethrow it, so the application sees it.
 */
export const reportInvalidInput = (error: unknown): ErrorPolicyDecision =>
  error instanceof ToolInputError ? 'report' : 'rethrow';
