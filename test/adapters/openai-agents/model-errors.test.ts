import { Agent, run, tool } from '@openai/agents';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { type FunctionToolError, wrapTools } from 'otel-tool-calls/openai-agents';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { FunctionCallThenEcho } from './scripted-model.js';

const telemetry = useTestTelemetry();

const weather = (options: { errorFunction?: null } = {}) =>
  tool({
    name: 'weather',
    description: 'Current weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }): Promise<string> => {
      if (city === 'Atlantis') throw new RangeError('no such city');
      return `sunny in ${city}`;
    },
    ...options,
  });

async function runWith(tools: ReturnType<typeof weather>[], city: unknown) {
  const model = new FunctionCallThenEcho({ name: 'weather', arguments: { city }, callId: 'call_1' });
  const agent = new Agent({ name: 'Assistant', model, tools: wrapTools(tools, telemetry.listener()) });
  return run(agent, 'Weather?');
}

const errorPoints = async () => telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);

describe('OpenAI Agents: arguments the SDK refuses are a call the model got wrong', () => {
  it('arguments failing the schema (the SDK answers with its errorFunction): InvalidToolInputError, the model’s', async () => {
    const result = await runWith([weather()], 42);

    expect(result.finalOutput).toBe('tool said: An error occurred while running the tool. Please try again.');
    const span = telemetry.span('execute_tool weather');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({
      [ATTR_ERROR_TYPE]: 'InvalidToolInputError',
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
      [ATTR_TOOL_CALL_ERROR_SOURCE]: 'model',
    });
    const [sample] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(sample?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    const [errors] = await errorPoints();
    expect(errors?.value).toBe(1);
    expect(errors?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
  });

  it("the tool's own failure is still the tool's: tool_error, no source", async () => {
    await runWith([weather()], 'Atlantis');

    const span = telemetry.span('execute_tool weather');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBeUndefined();
    const [errors] = await errorPoints();
    expect(errors?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBeUndefined();
  });

  it('a tool without errorFunction: the SDK rejects with its InvalidToolInputError, recorded as the model’s', async () => {
    const [wrapped] = wrapTools([weather({ errorFunction: null })], telemetry.listener());
    const failure = await runWith([wrapped as ReturnType<typeof weather>], 42).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(Error);
    const span = telemetry.spans().find((candidate) => candidate.name === 'execute_tool weather');
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('InvalidToolInputError');
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
  });

  it("keeps the refused arguments out of the span's status and exception event (the SDK's message describes them)", async () => {
    const [wrapped] = wrapTools([weather({ errorFunction: null })], telemetry.listener());
    const model = new FunctionCallThenEcho({ name: 'weather', arguments: { city: 42 }, callId: 'call_3' });
    const refusal = await run(
      new Agent({ name: 'Assistant', model, tools: [wrapped as ReturnType<typeof weather>] }),
      'Weather?',
    ).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(Error);
    const span = telemetry.spans().find((candidate) => candidate.name === 'execute_tool weather');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "Invalid input for tool 'weather'" });
    expect(span?.events.map((event) => event.attributes?.['exception.message'])).toEqual([
      "Invalid input for tool 'weather'",
    ]);
  });

  it("errorPolicy 'report': the model reads the listener's text for the refused arguments", async () => {
    const model = new FunctionCallThenEcho({ name: 'weather', arguments: { city: 42 }, callId: 'call_2' });
    const listener = telemetry.listener({
      errorPolicy: 'report',
      formatError: (name, error) => `${name}: ${(error as FunctionToolError).name}`,
    });
    const agent = new Agent({ name: 'Assistant', model, tools: wrapTools([weather()], listener) });

    const result = await run(agent, 'Weather?');

    expect(result.finalOutput).toBe('tool said: weather: InvalidToolInputError');
  });
});
