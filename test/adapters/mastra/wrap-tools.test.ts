import { Mastra } from '@mastra/core';
import { Agent, type ToolsInput } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { Observability } from '@mastra/observability';
import { OtelBridge } from '@mastra/otel-bridge';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { wrapTools } from 'otel-tool-calls/mastra';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { scriptedModel } from './scripted-model.js';

const telemetry = useTestTelemetry();

const weather = () =>
  createTool({
    id: 'weather-lookup',
    description: 'Current weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      if (city === 'Atlantis') throw new RangeError('no such city');
      return { forecast: `sunny in ${city}` };
    },
  });

const script = [
  { calls: [{ id: 'call-1', name: 'weather', input: { city: 'Paris' } }] },
  { calls: [{ id: 'call-2', name: 'weather', input: { city: 'Atlantis' } }] },
  'done',
];

/** One `generate` of a Mastra agent with `tools` on the scripted model; with the OTel bridge unless `bridge: false`. */
async function generate(tools: ToolsInput, { bridge = true, thread = '' } = {}) {
  const agent = new Agent({
    id: 'assistant',
    name: 'assistant',
    instructions: 'Answer.',
    model: scriptedModel(script),
    tools,
  });
  const observability = bridge
    ? new Observability({
        configs: {
          default: { serviceName: 'test', bridge: new OtelBridge({ tracerProvider: telemetry.tracerProvider }) },
        },
      })
    : undefined;
  const mastra = new Mastra({ agents: { agent }, logger: false, ...(observability ? { observability } : {}) });
  const memory = thread === '' ? undefined : { thread, resource: 'user-1' };
  const result = await mastra.getAgent('agent').generate('Weather in Paris, then in Atlantis?', { memory });
  // the bridge ends its spans in its exporter's event handler, after generate returns
  await observability?.shutdown?.();
  return result;
}

/** What the model got back for each call: Mastra's tool results (`{ toolCallId, result }`) and errors. */
const outcomes = (result: Awaited<ReturnType<typeof generate>>) =>
  result.steps.flatMap((step) =>
    step.content
      .filter((part) => part.type === 'tool-result' || part.type === 'tool-error')
      .map((part) => ({
        id: part.toolCallId,
        ...(part.type === 'tool-result'
          ? { result: part.output }
          : { error: String((part.error as Error)?.message ?? part.error) }),
      })),
  );

const toolSpans = () => telemetry.spans().filter((span) => span.name === 'execute_tool weather');
const samples = async () =>
  (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).reduce((n, point) => n + point.value.count, 0);

describe('wrapTools: Mastra agent tools', () => {
  it("one span per call, the OTel bridge's own, with the call id; one sample per call; the results unchanged", async () => {
    const unobserved = outcomes(await generate({ weather: weather() }, { bridge: false }));

    const result = await generate(wrapTools({ weather: weather() }, telemetry.listener()));

    expect(outcomes(result)).toEqual(unobserved);
    const spans = toolSpans();
    expect(spans.map((span) => span.instrumentationScope.name)).toEqual(['@mastra/otel-bridge', '@mastra/otel-bridge']);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call-1', 'call-2']);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME])).toEqual(['weather', 'weather']);
    expect(telemetry.spans().filter((span) => span.instrumentationScope.name === 'otel-tool-calls')).toEqual([]);
    expect(await samples()).toBe(2);
  });

  it("a failed call: counted once, the bridge's span in error, Mastra's own outcome for the model", async () => {
    const unobserved = outcomes(await generate({ weather: weather() }, { bridge: false }));

    const result = await generate(wrapTools({ weather: weather() }, telemetry.listener()));

    expect(outcomes(result)).toEqual(unobserved);
    const failed = toolSpans().find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'call-2');
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed?.attributes[ATTR_ERROR_TYPE]).toBe('RangeError');
    expect(failed?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => point.value)).toEqual([1]);
  });

  it("a thrown error is one exception event on the bridge's span, the tool's own error", async () => {
    await generate(wrapTools({ weather: weather() }, telemetry.listener()));

    const failed = toolSpans().find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'call-2');
    const exceptions = failed?.events.filter((event) => event.name === 'exception') ?? [];
    expect(exceptions).toHaveLength(1);
    expect(exceptions[0]?.attributes?.['exception.type']).toBe('RangeError');
    expect(exceptions[0]?.attributes?.['exception.message']).toBe('no such city');
  });

  it("errorPolicy 'report': the model reads the listener's text as the tool's output; the span stays an error", async () => {
    const result = await generate(wrapTools({ weather: weather() }, telemetry.listener({ errorPolicy: 'report' })));

    expect(outcomes(result).at(-1)).toEqual({
      id: 'call-2',
      result: { type: 'text', value: "Tool 'weather' failed: no such city" },
    });
    const failed = toolSpans().find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'call-2');
    expect(failed?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("the memory thread as gen_ai.conversation.id, on the bridge's span and on a span of its own; none without one", async () => {
    for (const bridge of [true, false]) {
      await generate(wrapTools({ weather: weather() }, telemetry.listener()), { bridge, thread: `thread-${bridge}` });
    }
    await generate(wrapTools({ weather: weather() }, telemetry.listener()), { bridge: false });
    expect(
      telemetry
        .spans()
        .filter((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME] === 'weather')
        .map((span) => span.attributes[ATTR_GEN_AI_CONVERSATION_ID]),
    ).toEqual(['thread-true', 'thread-true', 'thread-false', 'thread-false', undefined, undefined]);
  });

  it('without the bridge: a span of its own per call, with the call id', async () => {
    await generate(wrapTools({ weather: weather() }, telemetry.listener()), { bridge: false });

    const spans = toolSpans();
    expect(spans.map((span) => span.instrumentationScope.name)).toEqual(['otel-tool-calls', 'otel-tool-calls']);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call-1', 'call-2']);
    expect(await samples()).toBe(2);
  });

  it('observes in place: the original tool is untouched, a frozen tool works, its id and marker read through', async () => {
    const tool = weather();
    const { execute } = tool;
    const frozen = Object.freeze(weather());

    const wrapped = wrapTools({ weather: tool, frozen }, telemetry.listener());

    expect(tool.execute).toBe(execute);
    expect(wrapped.weather.id).toBe('weather-lookup');
    expect(wrapped.weather).toBeInstanceOf(Object.getPrototypeOf(tool).constructor);
    await generate({ weather: wrapped.frozen }, { bridge: false });
    expect(await samples()).toBe(2);
  });
});
