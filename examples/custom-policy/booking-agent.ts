import { generateText, type StopCondition, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { z } from 'zod';
import { ToolInputError } from './report-invalid-input.js';

/** The reservation backend: one restaurant's system is down. */
async function reserve(restaurant: string, time: string, people: number) {
  if (restaurant === 'Sakura') {
    throw Object.assign(new Error('connect ECONNREFUSED 10.0.4.7:443'), { code: 'ECONNREFUSED' });
  }
  return { confirmation: 'R-7731', restaurant, time, people };
}

const tools = {
  book_table: tool({
    description: 'Books a table. Restaurants open at 18:00.',
    inputSchema: z.object({ restaurant: z.string(), time: z.string().regex(/^\d\d:\d\d$/), people: z.number() }),
    execute: async ({ restaurant, time, people }) => {
      // A rule the schema does not express: the model can fix this one, so it is a ToolInputError.
      if (time < '18:00') throw new ToolInputError(`${restaurant} opens at 18:00; ${time} cannot be booked`);
      return reserve(restaurant, time, people);
    },
  }),
};

const usage = {
  inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};
const callBookTable = (toolCallId: string, input: object) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName: 'book_table', input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const answer = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage,
  warnings: [],
});

/** A scripted model, so the example runs offline: it books 17:00, is told why not, and books 19:00. */
export const scriptedModel = (restaurant: string) =>
  new MockLanguageModelV3({
    doGenerate: [
      callBookTable('call_1', { restaurant, time: '17:00', people: 4 }),
      callBookTable('call_2', { restaurant, time: '19:00', people: 4 }),
      answer(`Booked ${restaurant} for 4 at 19:00.`),
    ],
  });

/** A rethrown error is a `tool-error` in the AI SDK: stop there instead of asking the model again. */
const toolFailed: StopCondition<typeof tools> = ({ steps }) =>
  steps.at(-1)?.content.some((part) => part.type === 'tool-error') ?? false;

/** Runs one booking conversation with every tool call reported to `listener`. */
export function bookTable<Context>(
  restaurant: string,
  model: MockLanguageModelV3,
  listener: ToolCallListener<Context>,
) {
  return generateText({
    model,
    tools: wrapTools(tools, listener),
    stopWhen: [stepCountIs(5), toolFailed],
    prompt: `Book a table for 4 at ${restaurant} tonight.`,
  });
}
