import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import OpenAI from 'openai';
import { zodFunction } from 'openai/helpers/zod';
import { wrapTool, wrapTools } from 'otel-tool-calls/openai';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ChatReply, startFakeChatCompletions, toolMessagesIn } from '../../helpers/fake-chat-completions.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
let closeApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeApi?.();
  closeApi = undefined;
});

/** The model makes the calls of `turns[i]` at its i-th request, then answers `done`. */
function script(...turns: ChatReply['toolCalls'][]) {
  return (_request: unknown, index: number): ChatReply =>
    index < turns.length ? { toolCalls: turns[index] } : { content: 'done' };
}

async function clientOn(reply: ReturnType<typeof script>) {
  const api = await startFakeChatCompletions(reply);
  closeApi = api.close;
  return { client: new OpenAI({ apiKey: 'test-key', baseURL: api.baseURL, maxRetries: 0 }), api };
}

/** A RunnableTool whose `parse` is JSON.parse. */
const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    parse: JSON.parse,
    function: async ({ city }: { city: string }) => {
      if (city === 'Atlantis') throw new Error(`no weather for ${city}`);
      telemetry.tracer.startSpan('weather lookup').end();
      return { city, sky: 'rain' };
    },
  },
};

/** A RunnableTool without `parse`: it gets the raw argument string. */
const echo = {
  type: 'function' as const,
  function: {
    name: 'echo',
    description: 'Echoes its arguments',
    parameters: { type: 'object', properties: {} },
    function: (raw: string) => `echo ${raw}`,
  },
};

const call = (id: string, name: string, args: object | string) => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

function toolSpans() {
  return telemetry.spans().filter((span) => span.name.startsWith('execute_tool '));
}

describe('wrapTools with client.chat.completions.runTools of openai', () => {
  for (const stream of [false, true]) {
    it(`one execute_tool span per call, with the model's call id, active inside the tool; results unchanged (${stream ? 'SSE' : 'JSON'})`, async () => {
      const { client, api } = await clientOn(
        script([call('call_1', 'get_weather', { city: 'Oslo' }), call('call_2', 'echo', { a: 1 })]),
      );
      const params = {
        model: 'gpt-fake',
        messages: [{ role: 'user' as const, content: 'Weather in Oslo?' }],
        tools: wrapTools([weather, echo], telemetry.listener()),
      };
      const runner = stream
        ? client.chat.completions.runTools({ ...params, stream: true })
        : client.chat.completions.runTools(params);
      expect(await runner.finalContent()).toBe('done');

      const spans = toolSpans();
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]]).sort()).toEqual([
        ['execute_tool echo', 'call_2'],
        ['execute_tool get_weather', 'call_1'],
      ]);
      const weatherSpan = telemetry.span('execute_tool get_weather');
      expect(telemetry.span('weather lookup').parentSpanContext?.spanId).toBe(weatherSpan.spanContext().spanId);
      expect(weatherSpan.attributes['gen_ai.tool.call.arguments']).toBeUndefined(); // content capture is off by default
      expect(toolMessagesIn(api.requests[1])).toEqual([
        { tool_call_id: 'call_1', content: JSON.stringify({ city: 'Oslo', sky: 'rain' }) },
        { tool_call_id: 'call_2', content: 'echo {"a":1}' },
      ]);
      const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(points.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value.count]).sort()).toEqual([
        ['echo', 1],
        ['get_weather', 1],
      ]);
    });
  }

  it('a zodFunction tool: its parsed arguments, its call id', async () => {
    const { client, api } = await clientOn(script([call('call_z', 'lookup', { id: 7 })]));
    const lookup = zodFunction({
      name: 'lookup',
      description: 'Looks a record up',
      parameters: z.object({ id: z.number() }),
      function: async ({ id }) => `record ${id}`,
    });
    const listener = telemetry.listener({ captureContent: true });
    const runner = client.chat.completions.runTools({
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Record 7?' }],
      tools: wrapTools([lookup], listener),
    });
    expect(await runner.finalContent()).toBe('done');
    const span = telemetry.span('execute_tool lookup');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_z');
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"id":7}');
    expect(toolMessagesIn(api.requests[1])).toEqual([{ tool_call_id: 'call_z', content: 'record 7' }]);
  });

  it('identical calls in one turn get one span each, each with its own id', async () => {
    const { client } = await clientOn(
      script([call('call_a', 'get_weather', { city: 'Oslo' }), call('call_b', 'get_weather', { city: 'Oslo' })]),
    );
    const runner = client.chat.completions.runTools({
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Twice' }],
      tools: wrapTools([weather], telemetry.listener()),
    });
    await runner.finalContent();
    expect(
      toolSpans()
        .map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])
        .sort(),
    ).toEqual(['call_a', 'call_b']);
  });

  it("a tool that throws: 'rethrow' (the default) rejects the run as without the adapter; the span records the error", async () => {
    const { client } = await clientOn(script([call('call_1', 'get_weather', { city: 'Atlantis' })]));
    const runner = client.chat.completions.runTools({
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Atlantis?' }],
      tools: wrapTools([weather], telemetry.listener()),
    });
    await expect(runner.finalContent()).rejects.toThrow('no weather for Atlantis');
    const span = telemetry.span('execute_tool get_weather');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('Error');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => point.value)).toEqual([1]);
  });

  it("a tool that throws: 'report' makes the listener's text the tool message the model reads, and the run goes on", async () => {
    const { client, api } = await clientOn(script([call('call_1', 'get_weather', { city: 'Atlantis' })]));
    const runner = client.chat.completions.runTools({
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Atlantis?' }],
      tools: wrapTools([weather], telemetry.listener({ errorPolicy: 'report' })),
    });
    expect(await runner.finalContent()).toBe('done');
    const [message] = toolMessagesIn(api.requests[1]);
    expect(message?.tool_call_id).toBe('call_1');
    expect(message?.content).toContain('no weather for Atlantis');
    expect(telemetry.span('execute_tool get_weather').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('an unknown tool name the runner answers itself is a call the model got wrong, with its id; report replaces the runner’s text', async () => {
    const { client, api } = await clientOn(
      script([call('call_1', 'get_weather', { city: 'Oslo' })], [call('call_2', 'get_wether', { city: 'Oslo' })]),
    );
    const runner = client.chat.completions.runTools({
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: wrapTools([weather], telemetry.listener({ errorPolicy: 'report' })),
    });
    expect(await runner.finalContent()).toBe('done');
    const span = telemetry.span('execute_tool get_wether');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_2');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('InvalidToolCall');
    const [message] = toolMessagesIn(api.requests[2]).filter((sent) => sent.tool_call_id === 'call_2');
    expect(message?.content).toContain('Invalid tool_call: "get_wether"');
    expect(message?.content).not.toBe(
      'Invalid tool_call: "get_wether". Available options are: "get_weather". Please try again',
    );
  });

  it('arguments its parse refuses are a call the model got wrong (invalid_input), the tool never runs; rethrow keeps the runner’s answer', async () => {
    let ran = 0;
    const strict = {
      type: 'function' as const,
      function: {
        name: 'strict',
        description: 'Wants a number',
        parameters: { type: 'object', properties: { n: { type: 'number' } } },
        parse: (raw: string) => z.object({ n: z.number() }).parse(JSON.parse(raw)),
        function: () => {
          ran++;
          return 'ok';
        },
      },
    };
    const { client, api } = await clientOn(
      script([call('call_1', 'strict', { n: 1 })], [call('call_2', 'strict', { n: 'one' })]),
    );
    const runner = client.chat.completions.runTools({
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'n?' }],
      tools: wrapTools([strict], telemetry.listener()),
    });
    expect(await runner.finalContent()).toBe('done');
    expect(ran).toBe(1);
    const spans = toolSpans();
    expect(spans).toHaveLength(2);
    const refused = spans.find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'call_2');
    expect(refused?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    expect(refused?.attributes[ATTR_ERROR_TYPE]).toBe('ZodError');
    const [message] = toolMessagesIn(api.requests[2]).filter((sent) => sent.tool_call_id === 'call_2');
    expect(String(message?.content)).toContain('expected number');
  });

  it('other entries are returned as they are; the app’s tool is never changed; a wrapped tool wrapped again is the same', () => {
    const definition = { type: 'function' as const, function: { name: 'plain', parameters: {} } };
    const before = weather.function.function;
    const [wrapped, plain] = wrapTools([weather, definition], telemetry.listener());
    expect(plain).toBe(definition);
    expect(wrapped).not.toBe(weather);
    expect(weather.function.function).toBe(before);
    expect(wrapped.function.name).toBe('get_weather');
    expect(wrapTool(wrapped, telemetry.listener())).toBe(wrapped);
    expect(() => wrapTool({ type: 'function' } as never, telemetry.listener())).toThrow(
      /wrapTool: `tool` must be a runnable tool/,
    );
    expect(() => wrapTools('nope' as never, telemetry.listener())).toThrow(/wrapTools: `tools` must be an array/);
  });
});
