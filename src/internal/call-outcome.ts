import type { FailureOutcome, ToolCallInfo, ToolCallRejection } from '../tool-call-listener.js';
import { FAILURE_OUTCOME_KEY as OUTCOME } from './protocol.js';

export type { FailureOutcome };

/*
 * A listener's `onError` answer is a wish, not the outcome: in a composite another listener may
 * report what this one rethrows (the first string wins), and an `onError` that throws replaces
 * the error. So the decorator records what it actually did on the invocation's own `ToolCallInfo`
 * (`failureOutcome`), before `afterCompletion`, where a listener reads it to tell the truth. Also
 * under the registered key of the versions before the field (internal/protocol.ts), for their listeners.
 */
export function recordFailureOutcome(call: ToolCallInfo, outcome: FailureOutcome): void {
  setFact(call, 'failureOutcome', outcome);
  try {
    Object.defineProperty(call, OUTCOME, { value: outcome, configurable: true, enumerable: false, writable: true });
  } catch {
    // a frozen ToolCallInfo (not one the decorator built): its listeners keep their own view
  }
}

/** A rejection learnt from the failure (rejection-mark.ts), on the call before `onError` reads it. */
export function recordLateRejection(call: ToolCallInfo, rejection: ToolCallRejection | undefined): void {
  if (rejection !== undefined && call.rejection === undefined) setFact(call, 'rejection', rejection);
}

/** Read-only for the listeners: the decorator alone sets it (again, for a call that fails twice). */
function setFact(call: ToolCallInfo, key: 'failureOutcome' | 'rejection', value: string): void {
  try {
    Object.defineProperty(call, key, { value, configurable: true, enumerable: true, writable: false });
  } catch {
    // a frozen ToolCallInfo (not one the decorator built): its listeners keep their own view
  }
}
