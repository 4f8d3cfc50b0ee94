import type { ToolCallListener } from '../tool-call-listener.js';
import { IDLE_CALL_KEY as IDLE_CALL } from './protocol.js';

/**
 * A listener's answer to the decorator, asked before each call, when the call needs less than
 * every step:
 *
 * - `'only-errors'`: `beforeCall` would return `undefined` and do nothing else, `runInContext`
 *   would only run the tool, and `afterCall` and `afterCompletion` would do nothing: only
 *   `onError` matters, for a failure;
 * - `'nothing'`: the same, and `onError` would rethrow every failure as it is: the call is the
 *   tool's own, untouched.
 *
 * The OpenTelemetry listener answers while nothing is registered (it has nothing to record, and
 * only its error policy applies; with the default `'rethrow'` policy, not even that), so that a
 * listener left in a library whose host has no OpenTelemetry costs at most one Promise reaction.
 *
 * A registered symbol, not a module-local one: the adapters' bundles and the root's may each hold a
 * copy of this module, and they must agree.
 */
export { IDLE_CALL };

export type IdleCall = 'only-errors' | 'nothing';

/** What `listener` says the call about to start needs: `undefined` for every step. */
export function idleCall(listener: ToolCallListener<unknown>): IdleCall | undefined {
  const ask = (listener as { [IDLE_CALL]?: unknown })[IDLE_CALL];
  if (typeof ask !== 'function') return undefined;
  const answer: unknown = ask.call(listener);
  return answer === 'only-errors' || answer === 'nothing' ? answer : undefined;
}
