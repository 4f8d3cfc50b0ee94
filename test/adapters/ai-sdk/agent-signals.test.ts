/**
 * Issue 40's signals through the AI SDK: a real `generateText` loop (mock model) whose model calls the
 * same tool with the same arguments four times in one run, and a tool whose result is 10,000 characters.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_REPEAT_COUNT,
  METRIC_TOOL_CALL_REPEATS,
  METRIC_TOOL_CALL_RESULT_SIZE,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A model stuck in a loop: `times` steps that each call `toolName` with `input`, then a text. */
function loopingModel(toolName: string, input: unknown, times: number): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      if (step > times) {
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

describe('agent signals in an AI SDK loop', () => {
  it('a call repeated four times in one run: 3 repeats, its spans count 1, 2, 3', async () => {
    const tools = wrapTools(
      {
        search: tool({
          inputSchema: z.object({ query: z.string(), limit: z.number() }),
          execute: async ({ query }) => `no results for ${query}`,
        }),
      },
      telemetry.listener(),
    );
    // the run in a span of the app's (a request, an agent step): one trace. (ai 6's own spans,
    // experimental_telemetry, would do too; ai 7 leaves them to @ai-sdk/otel.)
    const { result } = await telemetry.withParent(() =>
      generateText({
        model: loopingModel('search', { limit: 5, query: 'weather in Lisbon' }, 4),
        tools,
        stopWhen: stepCountIs(6),
        prompt: 'Weather?',
      }),
    );
    const { steps } = result;
    expect(steps).toHaveLength(5);
    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool search');
    expect(spans.map((span) => span.attributes[ATTR_TOOL_CALL_REPEAT_COUNT])).toEqual([undefined, 1, 2, 3]);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    const [point, ...others] = await telemetry.counterPoints(METRIC_TOOL_CALL_REPEATS);
    expect(others).toEqual([]);
    expect(point?.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('search');
    expect(point?.value).toBe(3);
  });

  it('a 10,000-character result is one sample of 10,000 bytes', async () => {
    const tools = wrapTools(
      { read_file: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'x'.repeat(10_000) }) },
      telemetry.listener(),
    );
    await generateText({
      model: loopingModel('read_file', { path: 'big.txt' }, 1),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Read it',
    });
    const points = await telemetry.histogramPoints(METRIC_TOOL_CALL_RESULT_SIZE);
    expect(points.map((p) => [p.attributes[ATTR_GEN_AI_TOOL_NAME], p.value.count, p.value.sum])).toEqual([
      ['read_file', 1, 10_000],
    ]);
  });
});
