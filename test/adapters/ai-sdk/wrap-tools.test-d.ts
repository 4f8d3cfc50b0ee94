import { dynamicTool, generateText, jsonSchema, streamText, type Tool, type ToolExecutionOptions, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const weather = tool({
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: 21 }),
});
const progress = tool({
  inputSchema: z.object({ steps: z.number() }),
  async *execute({ steps }) {
    yield { step: steps };
  },
});
const ask = tool({ inputSchema: z.object({ question: z.string() }) });
const runtime = dynamicTool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => 'ok' });
const tools = { weather, progress, ask, runtime };
const listener: ToolCallListener<{ startedAt: number }> = { beforeCall: () => ({ startedAt: 0 }) };

describe('wrapTools (AI SDK) types', () => {
  it('returns exactly the type of the record it was given', () => {
    expectTypeOf(wrapTools(tools, listener)).toEqualTypeOf<typeof tools>();
    expectTypeOf(wrapTools(tools, listener).weather).toEqualTypeOf<
      Tool<{ city: string }, { city: string; temperature: number }>
    >();
    expectTypeOf(wrapTools(tools, listener).runtime.type).toEqualTypeOf<'dynamic'>();
  });

  it("keeps execute's input and output types", () => {
    const wrapped = wrapTools(tools, listener);
    type WeatherExecute = NonNullable<typeof wrapped.weather.execute>;
    expectTypeOf<Parameters<WeatherExecute>>().toEqualTypeOf<[{ city: string }, ToolExecutionOptions]>();
    type ProgressExecute = NonNullable<typeof wrapped.progress.execute>;
    expectTypeOf<Parameters<ProgressExecute>[0]>().toEqualTypeOf<{ steps: number }>();
  });

  it('passes to generateText and streamText, whose typed tool calls and results are unchanged', async () => {
    const model = new MockLanguageModelV3();
    const wrapped = wrapTools(tools, listener);
    const result = await generateText({ model, tools: wrapped, prompt: 'x' });
    const original = await generateText({ model, tools, prompt: 'x' });
    expectTypeOf(result).toEqualTypeOf(original);
    expectTypeOf(streamText({ model, tools: wrapped, prompt: 'x' })).toEqualTypeOf(
      streamText({ model, tools, prompt: 'x' }),
    );
  });

  it('accepts a listener of any context type and rejects what is not a record of tools', () => {
    expectTypeOf(wrapTools).toBeCallableWith(tools, {});
    expectTypeOf(wrapTools).toBeCallableWith(tools, listener);
    // @ts-expect-error an array of tools is not a ToolSet
    wrapTools([weather], listener);
    // @ts-expect-error the listener is required
    wrapTools(tools);
  });
});
