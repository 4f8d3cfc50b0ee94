import type Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { betaZodTool } from '@anthropic-ai/sdk/helpers/beta/zod';
import type { ToolCallListener } from 'otel-tool-calls';
import { wrapTool, wrapTools } from 'otel-tool-calls/anthropic';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

declare const listener: ToolCallListener<string>;
declare const client: Anthropic;

const weather = betaZodTool({
  name: 'get_weather',
  description: 'Weather of a city',
  inputSchema: z.object({ city: z.string() }),
  run: async ({ city }) => `rain in ${city}`,
});
const lookup = betaTool({
  name: 'lookup',
  description: 'Looks a key up',
  inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  run: ({ key }) => key,
});

describe('otel-tool-calls/anthropic types', () => {
  it('wrapTool keeps the exact runnable tool type (its run and parse)', () => {
    expectTypeOf(wrapTool(weather, listener)).toEqualTypeOf(weather);
    expectTypeOf(wrapTool(lookup, listener).run).toEqualTypeOf(lookup.run);
  });

  it('wrapTools keeps each element type, as a list the tool runner accepts', () => {
    expectTypeOf(wrapTools([weather, lookup], listener)).toEqualTypeOf<[typeof weather, typeof lookup]>();
    client.beta.messages.toolRunner({
      model: 'claude-fake',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: wrapTools([weather, lookup], listener),
    });
  });
});
