import { callModel, type ModelResult, OpenRouter, tool } from '@openrouter/agent';
import { OpenRouter as SdkClient } from '@openrouter/sdk';
import type { ToolCallListener } from 'otel-tool-calls';
import { instrumentModelResult } from 'otel-tool-calls/openrouter';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const weather = tool({
  name: 'get_weather',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, sky: 'rain' }),
});
const listener: ToolCallListener<{ startedAt: number }> = { beforeCall: () => ({ startedAt: 0 }) };

describe('instrumentModelResult types', () => {
  it("returns exactly the type of the ModelResult it was given, with its tools' types", () => {
    const result = callModel(new OpenRouter({ apiKey: 'k' }), { model: 'm', input: 'x', tools: [weather] as const });
    expectTypeOf(instrumentModelResult(result, listener)).toEqualTypeOf(result);
    expectTypeOf(instrumentModelResult(result, listener)).toExtend<ModelResult<readonly [typeof weather]>>();
    expectTypeOf(instrumentModelResult(result, listener).getText()).toEqualTypeOf<Promise<string>>();
  });

  it("takes @openrouter/sdk 1.x's ModelResult as well", () => {
    const result = new SdkClient({ apiKey: 'k' }).callModel({ model: 'm', input: 'x' });
    expectTypeOf(instrumentModelResult(result, listener)).toEqualTypeOf(result);
  });
});
