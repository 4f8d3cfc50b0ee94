import type { BaseToolWithCall, ToolCallLLM } from '@llamaindex/core/llms';
import { tool } from '@llamaindex/core/tools';
import { agent } from '@llamaindex/workflow';
import type { ToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/llamaindex';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

declare const listener: ToolCallListener<string>;
declare const llm: ToolCallLLM;

const weather = tool({
  name: 'weather',
  description: 'Current weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

describe('otel-tool-calls/llamaindex types', () => {
  it('wrapTools keeps each FunctionTool type, as a mutable tuple agent() accepts', () => {
    expectTypeOf(wrapTools([weather], listener)).toEqualTypeOf<[typeof weather]>();
    const list: BaseToolWithCall[] = [weather];
    expectTypeOf(wrapTools(list, listener)).toEqualTypeOf<BaseToolWithCall[]>();
    agent({ llm, tools: wrapTools([weather], listener) });
  });
});
