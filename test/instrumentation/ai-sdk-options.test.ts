import { type generateText, type LanguageModel, type StopCondition, stepCountIs, type ToolSet, tool } from 'ai';
import { ATTR_GEN_AI_TOOL_CALL_ID } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallThenText, toolResultsInPrompt } from '../adapters/ai-sdk/mock-model.js';
import { createTestTelemetry } from '../helpers/otel-sdk.js';
import { underAiInstrumentation } from './patch-ai.js';

const weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });
const call = { toolName: 'weather', input: { city: 'Oslo' }, toolCallId: 'call_1' };

/** Options as an app may build them: a class whose model is a getter over a `#private` field. */
class WeatherRequest {
  readonly #model: LanguageModel;
  readonly prompt = 'Weather in Oslo?';
  readonly tools: ToolSet = { weather };
  readonly stopWhen: StopCondition<ToolSet> = stepCountIs(2);

  constructor(model: LanguageModel) {
    this.#model = model;
  }

  get model(): LanguageModel {
    return this.#model;
  }
}

async function withInstrumentation(run: Parameters<typeof underAiInstrumentation>[1]) {
  const telemetry = createTestTelemetry();
  await underAiInstrumentation(telemetry, run);
  return telemetry.spans();
}

describe('ToolCallsInstrumentation: AI SDK options observed in place', () => {
  it('keeps generateText options that are a class instance (a prototype getter over a #private field)', async () => {
    const model = toolCallThenText(call);
    const request = new WeatherRequest(model);

    const spans = await withInstrumentation(async (patched) => {
      const result = await patched.generateText(request as unknown as Parameters<typeof generateText>[0]);
      expect(result.text).toBe('done');
    });

    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_1']);
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({ output: { type: 'text', value: 'sunny in Oslo' } }),
    ]);
    expect(request.tools).toEqual({ weather }); // the app's own record is not changed
  });

  it('keeps generateText options that inherit their model, tools and stopWhen from defaults', async () => {
    const model = toolCallThenText(call);
    const defaults = { model, tools: { weather }, stopWhen: stepCountIs(2) };
    const options = Object.assign(Object.create(defaults) as typeof defaults, { prompt: 'Weather in Oslo?' });

    const spans = await withInstrumentation(async (patched) => {
      const result = await patched.generateText(options);
      expect(result.text).toBe('done');
    });

    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_1']);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(defaults.tools.weather).toBe(weather);
  });
});
