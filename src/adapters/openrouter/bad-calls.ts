import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_OPENROUTER } from '../frameworks.js';
import type { ToolCall } from './tool-calls.js';

/*
 * The calls `callModel` answers without running a tool, each one span, sample and error:
 * - a name none of its tools has: the SDK gives the model no answer for it (`@openrouter/sdk` sends
 *   the next request without one; `@openrouter/agent` stops the loop and hands the call to the app);
 *   the model's mistake (`unknown_tool`: `_unknown` in the metrics);
 * - arguments that are not JSON (the SDK answers `Failed to parse tool call arguments …`) or that the
 *   tool's `inputSchema` refuses (its ZodError's message): the model's mistake (`invalid_input`);
 * - a call whose context (`contextSchema`) the SDK refuses after the arguments passed: the app's.
 * Under `'report'` the model reads the listener's text where it would have read the SDK's answer, in
 * the SDK's shape for a failed tool (`{"error": text}`); under `'rethrow'` it reads what it reads
 * without this package.
 */

/** The failure of a call to a tool `callModel` does not have: the SDK has no error of its own for it. */
export class UnknownToolError extends Error {
  override readonly name = 'UnknownToolError' as const;
}

/** Observes a call to a tool name `callModel`'s tools do not have; the text to answer it with, if reported. */
export function observeUnknownTool(
  listener: ToolCallListener<unknown>,
  call: ToolCall,
  conversationId: string | undefined,
): string | undefined {
  return observeRejectedCall(listener, {
    toolName: call.name,
    toolCallId: call.id,
    input: call.arguments,
    error: new UnknownToolError('the model called a tool that is not among callModel’s tools'),
    rejection: 'unknown_tool',
    framework: FRAMEWORK_OPENROUTER,
    conversationId,
  });
}

/** Observes arguments the SDK refused (`error`, its own or as it told the model); the text to answer with, if reported. */
export function observeBadArguments(
  listener: ToolCallListener<unknown>,
  call: ToolCall,
  error: unknown,
  conversationId: string | undefined,
): string | undefined {
  return observeRejectedCall(listener, {
    toolName: call.name,
    toolCallId: call.id,
    input: call.arguments,
    error,
    rejection: 'invalid_input',
    framework: FRAMEWORK_OPENROUTER,
    conversationId,
  });
}

/** Observes a call that failed before its tool ran, not through the model's fault; the text to answer with, if reported. */
export function observeFailureBeforeRun(
  listener: ToolCallListener<unknown>,
  call: ToolCall,
  error: unknown,
  conversationId: string | undefined,
): string | undefined {
  return observeRejectedCall(listener, {
    toolName: call.name,
    toolCallId: call.id,
    input: call.arguments,
    error,
    rejection: undefined,
    framework: FRAMEWORK_OPENROUTER,
    conversationId,
  });
}

/**
 * The SDK's message for a call that failed before its tool ran, re-made as an error for the
 * listener: `SyntaxError` for arguments that are not JSON, `ZodError` (what `inputSchema.parse`
 * threw) for arguments the schema refused. `@openrouter/sdk` keeps only the message.
 */
export function refusedArgumentsError(call: ToolCall, message: string): Error {
  if (typeof call.arguments === 'string') return new SyntaxError(message);
  return Object.assign(new Error(message), { name: 'ZodError' });
}
