/*
 * When this process asked for each pending approval, so that the answer, which comes in a later
 * request, carries the wait (`ToolCallDecision.waitSeconds`): the time a call waited for a human is
 * the approval panel's subject. Keyed by the conversation (conversation-key.ts) and the model's tool
 * call id, so that two conversations whose calls share an id (numbered per conversation) each keep
 * their own. Questions under one key (two conversations alike up to the call: same user messages,
 * same call id) are answered in the order they were asked. Bounded: at most MAX_PENDING_APPROVALS
 * questions in all, the oldest forgotten first (an approval never answered, or answered by another
 * process, costs one entry until then).
 */

/** Questions remembered at most: more pending approvals than this at once is not a human's queue. */
export const MAX_PENDING_APPROVALS = 4096;

interface Question {
  readonly key: string;
  readonly at: number;
}

/** Every pending question by the order it was asked in (a Map keeps it): the oldest is the first. */
const questions = new Map<number, Question>();
/** The questions of each key, oldest first. */
const byKey = new Map<string, number[]>();
let asked = 0;

/** `toolCallId` of `conversation` was asked about now. */
export function rememberAsked(toolCallId: string, conversation: string): void {
  if (questions.size >= MAX_PENDING_APPROVALS) forgetOldest();
  const key = keyOf(toolCallId, conversation);
  const order = asked++;
  questions.set(order, { key, at: performance.now() });
  const pending = byKey.get(key);
  if (pending === undefined) byKey.set(key, [order]);
  else pending.push(order);
}

/** Seconds since `toolCallId` of `conversation` was asked about in this process, once; undefined when it was not. */
export function takeWaitSeconds(toolCallId: string, conversation: string): number | undefined {
  const key = keyOf(toolCallId, conversation);
  const pending = byKey.get(key);
  const order = pending?.shift();
  if (pending === undefined || order === undefined) return undefined;
  if (pending.length === 0) byKey.delete(key);
  const question = questions.get(order);
  questions.delete(order);
  return question === undefined ? undefined : (performance.now() - question.at) / 1000;
}

function forgetOldest(): void {
  const oldest = questions.entries().next().value;
  if (oldest === undefined) return;
  const [order, { key }] = oldest;
  questions.delete(order);
  // the oldest question of all is the oldest of its key
  const pending = byKey.get(key);
  pending?.shift();
  if (pending?.length === 0) byKey.delete(key);
}

/** One string for both parts: the conversation key (base 36) has no NUL, so the first one ends it. */
function keyOf(toolCallId: string, conversation: string): string {
  return `${conversation}\u0000${toolCallId}`;
}
