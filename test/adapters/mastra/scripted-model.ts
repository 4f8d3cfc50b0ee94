import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/** One model turn: the tool calls it makes, or a text. */
export type Turn = { readonly calls: readonly { id: string; name: string; input: unknown }[] } | string;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * The AI SDK's mock model (a Mastra agent takes AI SDK models) playing `turns` in order, offline;
 * the last turn again once the script is done.
 */
export function scriptedModel(turns: readonly Turn[]): MockLanguageModelV3 {
  let turn = 0;
  return new MockLanguageModelV3({
    doGenerate: async (): Promise<LanguageModelV3GenerateResult> => {
      const next = turns[Math.min(turn++, turns.length - 1)] as Turn;
      if (typeof next === 'string') {
        return {
          content: [{ type: 'text', text: next }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: next.calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.name,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}
