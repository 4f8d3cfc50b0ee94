import type { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type StructuredToolInterface, tool } from '@langchain/core/tools';
import type { ToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/langchain';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Current weather of a city',
  schema: z.object({ city: z.string() }),
});
const add = new DynamicStructuredTool({
  name: 'add',
  description: 'Adds two numbers',
  schema: z.object({ a: z.number(), b: z.number() }),
  func: async ({ a, b }) => a + b,
});
const listener: ToolCallListener<{ startedAt: number }> = { beforeCall: () => ({ startedAt: 0 }) };

describe('wrapTools (LangChain) types', () => {
  it('returns exactly the type of the array it was given', () => {
    const tools = [weather, add];
    expectTypeOf(wrapTools(tools, listener)).toEqualTypeOf<typeof tools>();
    const tuple = [weather, add] as const;
    expectTypeOf(wrapTools(tuple, listener)).toEqualTypeOf<typeof tuple>();
    expectTypeOf(wrapTools(tuple, listener)[0].name).toEqualTypeOf<'weather'>();
  });

  it('keeps the typed invoke: plain arguments give the output, a ToolCall gives a ToolMessage', () => {
    const [wrapped] = wrapTools([weather], listener);
    expectTypeOf(wrapped.invoke).toBeCallableWith({ city: 'Paris' });
    expectTypeOf(
      wrapped.invoke({ name: 'weather', args: { city: 'Oslo' }, id: 'call_1', type: 'tool_call' }),
    ).toEqualTypeOf<Promise<ToolMessage>>();
    expectTypeOf(wrapped.invoke({ city: 'Paris' })).toEqualTypeOf<Promise<string>>();
  });

  it('still satisfies StructuredToolInterface, so wrapped tools go wherever tools go', () => {
    expectTypeOf(wrapTools([weather, add], listener)).toExtend<StructuredToolInterface[]>();
  });

  it('rejects what is not an array of StructuredTools', () => {
    // @ts-expect-error a record is not an array of tools
    wrapTools({ weather }, listener);
    // @ts-expect-error the listener is required
    wrapTools([weather]);
  });
});
