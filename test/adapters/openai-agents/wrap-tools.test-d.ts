import { Agent, hostedMcpTool, type Tool, tool } from '@openai/agents';
import type { ToolCallListener } from 'otel-tool-calls';
import { type FunctionToolError, wrapTool, wrapTools } from 'otel-tool-calls/openai-agents';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

declare const listener: ToolCallListener<string>;

const weather = tool({
  name: 'weather',
  description: 'Current weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: 21 }),
});
const hosted = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://example.invalid/mcp' });

describe('otel-tool-calls/openai-agents types', () => {
  it('wrapTool keeps the exact FunctionTool type', () => {
    expectTypeOf(wrapTool(weather, listener)).toEqualTypeOf(weather);
    expectTypeOf(wrapTool(weather, listener).invoke).toEqualTypeOf(weather.invoke);
  });

  it('wrapTools keeps each element type, as a mutable tuple an Agent accepts', () => {
    expectTypeOf(wrapTools([weather, hosted], listener)).toEqualTypeOf<[typeof weather, typeof hosted]>();
    const list: Tool[] = [weather, hosted];
    expectTypeOf(wrapTools(list, listener)).toEqualTypeOf<Tool[]>();
    new Agent({ name: 'a', tools: wrapTools([weather, hosted], listener) });
  });

  it('FunctionToolError carries code tool_error (InvalidToolInputError for refused arguments) and the output the SDK made', () => {
    expectTypeOf<FunctionToolError>().toExtend<Error>();
    expectTypeOf<FunctionToolError['code']>().toEqualTypeOf<'tool_error' | 'InvalidToolInputError'>();
    expectTypeOf<FunctionToolError['output']>().toEqualTypeOf<unknown>();
  });

  it('rejects what is not a tool', () => {
    // @ts-expect-error a hosted tool is not a FunctionTool
    wrapTool(hosted, listener);
    // @ts-expect-error tools is an array
    wrapTools(weather, listener);
  });
});
