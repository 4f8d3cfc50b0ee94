/**
 * The app of the startup group: what an agent started per request or per command does once, an AI
 * SDK `generateText` with a mock model (no network) that calls one tool, then the answer. No
 * telemetry code: the `register`, floor and peer cases add theirs with a preload.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

const usage = {
  inputTokens: { total: 9, noCache: 9, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 9, text: 9, reasoning: 0 },
};

/** The first turn calls the tool, the next answers with its result. */
export const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const result = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []))[0] as
      | { output: unknown }
      | undefined;
    const content =
      result === undefined
        ? [{ type: 'tool-call' as const, toolCallId: 'call_1', toolName: 'getWeather', input: '{"city":"Lisbon"}' }]
        : [{ type: 'text' as const, text: JSON.stringify(result.output) }];
    const finishReason = { unified: result === undefined ? 'tool-calls' : 'stop', raw: undefined } as const;
    return { content, finishReason, usage, warnings: [] };
  },
});

export const tools = {
  getWeather: tool({
    description: 'Current weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, celsius: 18 }),
  }),
};

/** One agent turn with the given tools. */
export async function answer(withTools: typeof tools = tools): Promise<string> {
  const { text } = await generateText({
    model,
    tools: withTools,
    stopWhen: stepCountIs(2),
    prompt: 'Weather in Lisbon?',
  });
  return text;
}
