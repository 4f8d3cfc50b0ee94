import type { ToolCallRejection } from '../tool-call-listener.js';
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
