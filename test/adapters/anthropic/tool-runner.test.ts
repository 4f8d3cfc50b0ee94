import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { betaZodTool } from '@anthropic-ai/sdk/helpers/beta/zod';
import { ToolError } from '@anthropic-ai/sdk/lib/tools/ToolError';
import { SpanStatusCode } from '@opentelemetry/api';
import { wrapTool, wrapTools } from 'otel-tool-calls/anthropic';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Reply, startFakeMessagesApi } from '../../helpers/fake-messages-api.mjs';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
let closeApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeApi?.();
  closeApi = undefined;
});

/** The model calls `name` with `input` (id `toolu_1`), then answers with text once it has the result. */
function callsOnce(name: string, input: unknown): (request: unknown, index: number) => Reply {
  return (_request, index) =>
    index === 0
      ? { content: [{ type: 'tool_use', id: 'toolu_1', name, input }] }
      : { content: [{ type: 'text', text: 'done' }] };
}

async function runnerOn(script: (request: unknown, index: number) => Reply) {
  const api = await startFakeMessagesApi(script);
  closeApi = api.close;
  const client = new Anthropic({
    apiKey: 'test-key',
    baseURL: api.baseURL,
    maxRetries: 0,
    openTelemetry: { tracerProvider: telemetry.tracerProvider },
  });
  return { client, api };
}

/** The `tool_result` blocks the runner sent back to the fake API in its second request. */
function toolResultsSent(api: Awaited<ReturnType<typeof startFakeMessagesApi>>): unknown[] {
  const messages = (api.requests[1]?.body.messages ?? []) as Array<{ content?: unknown }>;
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.filter((block: { type?: string }) => block.type === 'tool_result')
      : [],
  );
}

const weather = () =>
  betaZodTool({
    name: 'get_weather',
    description: 'Weather of a city',
    inputSchema: z.object({ city: z.string() }),
    run: async ({ city }) => {
      if (city === 'Atlantis') throw new Error(`no weather for ${city}`);
      telemetry.tracer.startSpan('weather lookup').end();
      return `rain in ${city}`;
    },
  });

describe('wrapTools with the tool runner of @anthropic-ai/sdk', () => {
  for (const stream of [false, true]) {
    it(`gives one execute_tool span per call, the SDK's own span joined, with the tool_use id (${stream ? 'SSE' : 'JSON'})`, async () => {
      const { client, api } = await runnerOn(callsOnce('get_weather', { city: 'Oslo' }));
      const final = await client.beta.messages.toolRunner({
        model: 'claude-fake',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: wrapTools([weather()], telemetry.listener()),
        ...(stream ? { stream: true as const } : {}),
      });
      expect(final.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(toolResultsSent(api)).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'rain in Oslo' }]);
      const toolSpans = telemetry
        .spans()
        .filter((span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'execute_tool');
      expect(toolSpans.map((span) => span.name)).toEqual(['anthropic.custom_tool_use get_weather']);
      const [span] = toolSpans;
      expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('toolu_1');
      expect(span?.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('get_weather');
      // the tool body's own span is a child of the call's span
      expect(telemetry.span('weather lookup').parentSpanContext?.spanId).toBe(span?.spanContext().spanId);
      const [sample] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(sample?.value.count).toBe(1);
      expect(sample?.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('get_weather');
    });
  }

  it('counts a thrown error, and the runner sends its own is_error result (rethrow)', async () => {
    const { client, api } = await runnerOn(callsOnce('get_weather', { city: 'Atlantis' }));
    await client.beta.messages.toolRunner({
      model: 'claude-fake',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Weather in Atlantis?' }],
      tools: wrapTools([weather()], telemetry.listener()),
    });
    expect(toolResultsSent(api)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Error: no weather for Atlantis', is_error: true },
    ]);
    const span = telemetry.span('anthropic.custom_tool_use get_weather');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    // the span is the SDK's, but the failure the call recorded on it is kept (kept-failure.ts): the
    // error's own type, as on the metrics, not the SDK's `tool_error` written when it ends the span
    expect(span.attributes['error.type']).toBe('Error');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => [point.value, point.attributes['error.type']])).toEqual([[1, 'Error']]);
  });

  it("counts the SDK's error result (a ToolError), and hands its content to the runner unchanged", async () => {
    const failing = betaTool({
      name: 'lookup',
      description: 'Looks a key up',
      inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
      run: () => {
        throw new ToolError([{ type: 'text', text: 'no such key' }]);
      },
    });
    const { client, api } = await runnerOn(callsOnce('lookup', { key: 'k' }));
    await client.beta.messages.toolRunner({
      model: 'claude-fake',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Look k up' }],
      tools: wrapTools([failing], telemetry.listener()),
    });
    expect(toolResultsSent(api)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'no such key' }], is_error: true },
    ]);
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => [point.value, point.attributes['error.type']])).toEqual([[1, 'ToolError']]);
  });

  it("reports a failure to the model as a tool_result with is_error: true, in the listener's words", async () => {
    const { client, api } = await runnerOn(callsOnce('get_weather', { city: 'Atlantis' }));
    await client.beta.messages.toolRunner({
      model: 'claude-fake',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Weather in Atlantis?' }],
      tools: wrapTools([weather()], telemetry.listener({ errorPolicy: 'report' })),
    });
    expect(toolResultsSent(api)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: "Tool 'get_weather' failed: no weather for Atlantis",
        is_error: true,
      },
    ]);
    const span = telemetry.span('anthropic.custom_tool_use get_weather');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it('observes in place: a tool class with a #private field, its state kept across calls', async () => {
    class Counter {
      readonly name = 'count';
      readonly description = 'Counts calls';
      readonly input_schema = { type: 'object' as const, properties: {} };
      #calls = 0;
      get calls() {
        return this.#calls;
      }
      parse(input: unknown) {
        return input;
      }
      run() {
        this.#calls += 1;
        return `call ${this.#calls}`;
      }
    }
    const counter = new Counter();
    const wrapped = wrapTool(counter, telemetry.listener());
    expect(wrapped).toBeInstanceOf(Counter);
    expect(wrapped.calls).toBe(0);
    const { client, api } = await runnerOn((_request, index) =>
      index < 2
        ? { content: [{ type: 'tool_use', id: `toolu_${index + 1}`, name: 'count', input: {} }] }
        : { content: [{ type: 'text', text: 'done' }] },
    );
    await client.beta.messages.toolRunner({
      model: 'claude-fake',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Count twice' }],
      tools: [wrapped],
    });
    expect(counter.calls).toBe(2);
    expect(wrapped.calls).toBe(2);
    expect(api.requests).toHaveLength(3);
    expect(
      telemetry
        .spans()
        .filter((span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'execute_tool')
        .map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]),
    ).toEqual(['toolu_1', 'toolu_2']);
  });

  it('leaves entries that are not runnable tools as they are', () => {
    const definition = { name: 'server_side', input_schema: { type: 'object' as const } };
    const [kept] = wrapTools([definition], telemetry.listener());
    expect(kept).toBe(definition);
  });
});
