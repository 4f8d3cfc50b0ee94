import type { ToolCallInfo } from '../tool-call-listener.js';
import { FAILURE_OUTCOME_KEY as OUTCOME } from './protocol.js';

/** What the decorator did with a failure: returned a report text, or let an error propagate. */
export type FailureOutcome = 'reported' | 'rethrown';

/*
 * A listener's `onError` answer is a wish, not the outcome: in a composite another listener may
 * report what this one rethrows (the first string wins), and an `onError` that throws replaces
 * the error. So the decorator records what it actually did on the invocation's own `ToolCallInfo`,
 * before `afterCompletion`, where a listener (the OpenTelemetry one) reads it to tell the truth.
 * A registered symbol, not a module-local WeakMap: the adapters' bundles and the root's may each
 * hold a copy of this module, and they must agree.
 */

export function recordFailureOutcome(call: ToolCallInfo, outcome: FailureOutcome): void {
  try {
    Object.defineProperty(call, OUTCOME, { value: outcome, configurable: true, enumerable: false, writable: true });
  } catch {
    // a frozen ToolCallInfo (not one the decorator built): its listeners keep their own view
  }
}

/** The outcome the decorator recorded for this invocation's failure, if it recorded one. */
export function failureOutcomeOf(call: ToolCallInfo | undefined): FailureOutcome | undefined {
  if (call === null || typeof call !== 'object') return undefined;
  const outcome = (call as { [OUTCOME]?: unknown })[OUTCOME];
  return outcome === 'reported' || outcome === 'rethrown' ? outcome : undefined;
}
