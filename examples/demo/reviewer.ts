// The human who approves the support agent's emails to customers (send_email's `needsApproval`): they
// take a while to read the email and turn down one in ten. The AI SDK stops the run at the question;
// the answer goes back in the next request, as a chat app's approve/deny buttons would send it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelMessage } from 'ai';

/** The reviewer's reading time, in seconds. */
export const REVIEW_SECONDS = { min: 0.3, max: 2.5 } as const;
/** The share of emails the reviewer turns down. */
export const DENIED_SHARE = 0.1;

/** The tool message that answers each approval request, after the reviewer's wait. */
export async function review(requests: readonly { readonly approvalId: string }[]): Promise<ModelMessage> {
  const seconds = REVIEW_SECONDS.min + Math.random() * (REVIEW_SECONDS.max - REVIEW_SECONDS.min);
  await sleep(seconds * 1000);
  return {
    role: 'tool',
    content: requests.map(({ approvalId }) => {
      const approved = Math.random() >= DENIED_SHARE;
      return {
        type: 'tool-approval-response' as const,
        approvalId,
        approved,
        ...(approved ? {} : { reason: 'not the tone we use with customers' }),
      };
    }),
  };
}
