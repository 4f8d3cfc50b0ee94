/**
 * An approval flow in two turns, for the tests of the AI SDK's approvals (explicit and zero-code): the
 * model calls send_email (which needs approval) twice; the app denies call_1 and grants call_2.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type generateText, type ModelMessage, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { expect } from 'vitest';
import { z } from 'zod';

export { inMemoryLogs } from '../../helpers/decision-logs.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** Calls send_email twice; once the prompt holds tool results (or denials), answers with text. */
export function emailingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const answered = prompt.some((message) => message.role === 'tool');
      if (answered) {
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: ['call_1', 'call_2'].map((toolCallId, index) => ({
          type: 'tool-call' as const,
          toolCallId,
          toolName: 'send_email',
          input: JSON.stringify({ to: `user${index}@example.com` }),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

export const sent: string[] = [];
export const asked: string[] = [];
export const sendEmail = tool({
  inputSchema: z.object({ to: z.string() }),
  // a function: the SDK asks it when the model calls, and again before an approved call runs
  needsApproval: async (_input, { toolCallId }) => {
    asked.push(toolCallId);
    return true;
  },
  execute: async ({ to }) => {
    sent.push(to);
    return `sent to ${to}`;
  },
});

/** How long the human takes to answer, between the two turns. */
export const HUMAN_WAIT_MS = 50;

type Options = (messages: ModelMessage[]) => Parameters<typeof generateText>[0];

/** The two turns: the model asks, the app denies call_1 and grants call_2 after a human's wait. */
export async function askDenyGrant(generate: typeof generateText, options: Options) {
  sent.length = 0;
  asked.length = 0;
  const answer = await askApprovals(generate, options, 'Email both users');
  await sleep(HUMAN_WAIT_MS);
  await answer();
}

/**
 * The first turn of a conversation that opens with `userText`: the model asks approval of call_1 and
 * call_2. Returns its second turn, which denies call_1 and grants call_2; `edit` may change the messages
 * the client sends back (as a client can).
 */
export async function askApprovals(
  generate: typeof generateText,
  options: Options,
  userText: string,
): Promise<(edit?: (messages: ModelMessage[]) => void) => Promise<void>> {
  const messages: ModelMessage[] = [{ role: 'user', content: userText }];
  const first = await generate(options(messages));
  const requests = first.content.filter((part) => part.type === 'tool-approval-request');
  expect(requests.map((part) => part.toolCall.toolCallId)).toEqual(['call_1', 'call_2']);
  return async (edit) => {
    messages.push(...first.response.messages, {
      role: 'tool',
      content: requests.map((part) => ({
        type: 'tool-approval-response' as const,
        approvalId: part.approvalId,
        approved: part.toolCall.toolCallId === 'call_2',
      })),
    });
    edit?.(messages);
    const second = await generate(options(messages));
    expect(second.text).toBe('done');
  };
}
