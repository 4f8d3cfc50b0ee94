import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import type { ToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/mastra';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from './scripted-model.js';

declare const listener: ToolCallListener<string>;

const weather = createTool({
  id: 'weather',
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ forecast: z.string() }),
  execute: async ({ city }) => ({ forecast: `sunny in ${city}` }),
});

describe('otel-tool-calls/mastra types', () => {
  it("wrapTools keeps each tool's exact type, a record Mastra's Agent accepts", () => {
    const tools = wrapTools({ weather }, listener);
    expectTypeOf(tools).toEqualTypeOf<{ weather: typeof weather }>();
    expectTypeOf(tools.weather.execute).toEqualTypeOf(weather.execute);
    new Agent({ id: 'a', name: 'a', instructions: 'Answer.', model: scriptedModel(['done']), tools });
  });

  it('rejects what is not a record of tools', () => {
    // @ts-expect-error an array is not a tool record
    wrapTools([weather], listener);
  });
});
