import { logger } from '../internal/logger.js';
import type { ToolCallInfo } from '../tool-call-listener.js';
import type { ErrorPolicy, ErrorPolicyDecision } from './types.js';
import { HOOK_THREW, HOOK_WENT_ASYNC, runUserHook } from './user-hook.js';

/**
 * The decision for one failure: the tool's own policy, else the listener's. A fixed policy
 * rethrows aborted calls (the caller asked to stop; telling the model is not what it wants); a
 * policy function decides for them too. A function that throws or answers nonsense means
 * `rethrow`, the behaviour without telemetry.
 */
export function decideErrorPolicy(
  policy: ErrorPolicy,
  toolPolicies: Readonly<Record<string, ErrorPolicy>>,
  toolName: string,
  error: unknown,
  call: ToolCallInfo,
): ErrorPolicyDecision {
  const chosen = Object.hasOwn(toolPolicies, toolName) ? (toolPolicies[toolName] as ErrorPolicy) : policy;
  if (typeof chosen !== 'function') return call.signal?.aborted ? 'rethrow' : chosen;
  const decision: unknown = runUserHook(
    () => `errorPolicy for '${toolName}'`,
    () => `errorPolicy for '${toolName}' threw; rethrowing`,
    () => chosen(error, call),
  );
  if (decision === 'report' || decision === 'rethrow') return decision;
  if (decision === HOOK_WENT_ASYNC) {
    logger.error(`errorPolicy for '${toolName}' returned a Promise (it must decide synchronously); rethrowing`);
  } else if (decision !== HOOK_THREW) {
    logger.error(`errorPolicy for '${toolName}' returned ${describeDecision(decision)}; rethrowing`);
  }
  return 'rethrow';
}

/** `String()` of what a policy returned, safe on symbols and objects whose `toString` throws. */
function describeDecision(decision: unknown): string {
  try {
    return String(decision);
  } catch {
    return typeof decision;
  }
}
