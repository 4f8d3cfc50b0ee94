/*
 * What tells one conversation's pending approvals from another's, in the AI SDK, which has no
 * conversation id: gateways and local models number tool calls per conversation (`call_0`,
 * `call_1`...), so a call id alone is shared by every conversation in flight. Both ends of an approval
 * see the conversation's messages: the question (`needsApproval`) those the model was given for the
 * step that made the call, the answer (the app's next request) the same ones before the assistant
 * message that holds the approval request. Of these, the key reads the user messages' text alone: the
 * part of a conversation that is the user's own, and that a client sends back as it got it (assistant
 * and tool messages may come back in another form, as UI messages converted again). The key is a hash:
 * no text is kept.
 */

import { Hash53 } from '../../internal/hash53.js';

interface Message {
  readonly role?: unknown;
  readonly content?: unknown;
}

/** The key of the conversation whose messages are `messages` (those before `end`, when given). */
export function conversationKey(messages: unknown, end?: number): string {
  const hash = new Hash53();
  if (Array.isArray(messages)) {
    const last = end === undefined ? messages.length : Math.min(end, messages.length);
    for (let index = 0; index < last; index++) {
      const message = messages[index] as Message | null;
      if (message?.role === 'user') addUserContent(hash, message.content);
    }
  }
  return hash.digest().toString(36);
}

/** A user message's text, its other parts by their type: a separator after each, so that ["ab"] is not ["a", "b"]. */
function addUserContent(hash: Hash53, content: unknown): void {
  if (typeof content === 'string') {
    hash.add(content);
  } else if (Array.isArray(content)) {
    for (const part of content as ({ type?: unknown; text?: unknown } | null)[]) {
      if (part?.type === 'text' && typeof part.text === 'string') hash.add(part.text);
      else hash.add(`\u0000${String(part?.type)}`);
    }
  }
  hash.add('\u0001');
}
