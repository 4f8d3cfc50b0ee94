import type { ToolCallRejection } from '../tool-call-listener.js';
import { isPromiseLike } from './is-async-iterable.js';
import { REJECTION_KEY as REJECTION } from './protocol.js';

/**
 * A rejection an adapter learns of only when the call failed (the OpenAI Agents SDK validates the
 * arguments inside the tool's own `invoke`): the error says it, under a registered symbol that the
 * listener reads when it records the failure. `ToolCallInfo.rejection` says it for a call rejected
 * before it started.
 */

export function markRejection<Failure extends object>(error: Failure, rejection: ToolCallRejection): Failure {
  try {
    Object.defineProperty(error, REJECTION, { value: rejection, configurable: true, enumerable: false });
  } catch {
    // a frozen error: recorded as the tool's own failure
  }
  return error;
}

/** The rejection an adapter marked on `error`, if any. */
export function rejectionOf(error: unknown): ToolCallRejection | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  try {
    const rejection = (error as { [REJECTION]?: unknown })[REJECTION];
    return rejection === 'invalid_input' || rejection === 'unknown_tool' ? rejection : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `answer`, a promise whose rejection is marked with what `classify` finds in the error (a refusal
 * the adapter learns of only from the answer); any other value as it is.
 */
export function markingRejections(
  answer: unknown,
  classify: (error: unknown) => ToolCallRejection | undefined,
): unknown {
  if (!isPromiseLike(answer)) return answer;
  return answer.then(undefined, (error: unknown) => {
    const rejection = classify(error);
    throw rejection === undefined ? error : markRejection(error as object, rejection);
  });
}
