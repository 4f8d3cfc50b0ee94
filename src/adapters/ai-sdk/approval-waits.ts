/*
 * When this process asked for each pending approval, so that the answer, which comes in a later
 * request, carries the wait (`ToolCallDecision.waitSeconds`): the time a call waited for a human is
 * the approval panel's subject. Keyed by the model's tool call id; bounded, the oldest question
 * forgotten first (an approval never answered, or answered by another process, costs one entry
 * until then).
 */

/** Questions remembered at most: more pending approvals than this at once is not a human's queue. */
export const MAX_PENDING_APPROVALS = 4096;

const askedAt = new Map<string, number>();

/** `toolCallId` was asked about now. */
export function rememberAsked(toolCallId: string): void {
  askedAt.delete(toolCallId);
  if (askedAt.size >= MAX_PENDING_APPROVALS) {
    const oldest = askedAt.keys().next().value;
    if (oldest !== undefined) askedAt.delete(oldest);
  }
  askedAt.set(toolCallId, performance.now());
}

/** Seconds since `toolCallId` was asked about in this process, once; undefined when it was not. */
export function takeWaitSeconds(toolCallId: string): number | undefined {
  const asked = askedAt.get(toolCallId);
  if (asked === undefined) return undefined;
  askedAt.delete(toolCallId);
  return (performance.now() - asked) / 1000;
}
