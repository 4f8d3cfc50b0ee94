import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_GOOGLE_GENAI } from '../frameworks.js';
import type { FunctionCallLike } from './callable-tool.js';
import { argsOf, idOf, nameOf } from './function-calls.js';
import { functionResponseError } from './function-responses.js';

/**
 * The failure of a function call the model made to a name no CallableTool of the request declares
 * (`error.type` `UndeclaredFunctionError`). The SDK has no error of its own for it: `generateContent`
 * hands the call to every CallableTool, none answers it, and the model gets no answer for it.
 */
export class UndeclaredFunctionError extends Error {
  override readonly name = 'UndeclaredFunctionError' as const;
}

/**
 * Observes a call no tool declares as the model's mistake (`unknown_tool`: the span has the name the
 * model used, the metrics `_unknown`), one span, sample and error, and returns what the model reads
 * for it: under `'report'` a `functionResponse` with the listener's text, under `'rethrow'` nothing,
 * as without the package.
 */
export function observeUndeclaredCall(call: FunctionCallLike, listener: ToolCallListener<unknown>): unknown[] {
  const name = nameOf(call) as string;
  const reported = observeRejectedCall(listener, {
    toolName: name,
    toolCallId: idOf(call),
    input: argsOf(call),
    error: new UndeclaredFunctionError('the model called a function that no tool declares'),
    rejection: 'unknown_tool',
    framework: FRAMEWORK_GOOGLE_GENAI,
  });
  return reported === undefined ? [] : [functionResponseError(call, name, reported)];
}
