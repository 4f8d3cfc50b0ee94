import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentModelResult } from 'otel-tool-calls/openrouter';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type ResponsesReply, startFakeResponsesApi, toolOutputsIn } from '../../helpers/fake-responses-api.mjs';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { type ModelResultLike, ROUTES, type Route } from './routes.js';

const telemetry = useTestTelemetry();
let closeApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeApi?.();
  closeApi = undefined;
});

type ToolCall = NonNullable<ResponsesReply['toolCalls']>[number];

/** The model makes the calls of `turns[i]` at its i-th request, then answers `done`. */
function script(...turns: ToolCall[][]) {
  return (_request: unknown, index: number): ResponsesReply =>
    index < turns.length ? { toolCalls: turns[index] } : { content: 'done' };
}

const call = (id: string, name: string, args: object | string): ToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

async function apiFor(reply: ReturnType<typeof script>) {
  const api = await startFakeResponsesApi(reply);
  closeApi = api.close;
  return api;
}

/** get_weather, with the route's `tool()`: rain in a city, no weather for Atlantis (it throws). */
function weatherTool(route: Route) {
  return route.tool({
    name: 'get_weather',
    description: 'Weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }: { city: string }) => {
      telemetry.tracer.startSpan('weather lookup').end();
      if (city === 'Atlantis') throw new Error(`no weather for ${city}`);
      return { city, sky: 'rain' };
    },
  } as never);
}

function toolSpans() {
  return telemetry.spans().filter((span) => span.name.startsWith('execute_tool '));
}

function run(route: Route, serverURL: string, tools: unknown[], listener?: object): Promise<string> {
  const result = route.callModel(serverURL, { model: 'openai/gpt-fake', input: 'Weather?', tools }) as object;
  const observed = listener === undefined ? result : instrumentModelResult(result, listener);
  return (observed as ModelResultLike).getText();
}

describe.each(ROUTES)('instrumentModelResult: callModel through $name', (route) => {
  it("one execute_tool span per call the SDK runs, with the model's call id, active inside the tool; what the model reads unchanged", async () => {
    const api = await apiFor(
      script([call('call_1', 'get_weather', { city: 'Oslo' }), call('call_2', 'get_weather', { city: 'Bergen' })]),
    );
    expect(await run(route, api.serverURL, [weatherTool(route)], telemetry.listener())).toBe('done');

    const spans = toolSpans();
    expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]]).sort()).toEqual([
      ['execute_tool get_weather', 'call_1'],
      ['execute_tool get_weather', 'call_2'],
    ]);
    const lookups = telemetry.spans().filter((span) => span.name === 'weather lookup');
    expect(lookups.map((lookup) => lookup.parentSpanContext?.spanId).sort()).toEqual(
      spans.map((span) => span.spanContext().spanId).sort(),
    );
    expect(toolOutputsIn(api.requests[1])).toEqual([
      { callId: 'call_1', output: JSON.stringify({ city: 'Oslo', sky: 'rain' }) },
      { callId: 'call_2', output: JSON.stringify({ city: 'Bergen', sky: 'rain' }) },
    ]);
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value.count])).toEqual([
      ['get_weather', 2],
    ]);
  });

  it("a tool that throws: one failed span and one error; 'rethrow' leaves the SDK's answer, 'report' makes it the listener's text", async () => {
    for (const errorPolicy of ['rethrow', 'report'] as const) {
      const api = await apiFor(script([call(`call_${errorPolicy}`, 'get_weather', { city: 'Atlantis' })]));
      expect(await run(route, api.serverURL, [weatherTool(route)], telemetry.listener({ errorPolicy }))).toBe('done');
      const text =
        errorPolicy === 'report' ? "Tool 'get_weather' failed: no weather for Atlantis" : 'no weather for Atlantis';
      expect(toolOutputsIn(api.requests[1])).toEqual([
        { callId: `call_${errorPolicy}`, output: JSON.stringify({ error: text }) },
      ]);
      await closeApi?.();
      closeApi = undefined;
    }
    const spans = toolSpans();
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes[ATTR_ERROR_TYPE]).toBe('Error');
    }
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.reduce((sum, point) => sum + point.value, 0)).toBe(2);
  });
});

/** Turn 1: a call that works, one whose tool throws, arguments that are not JSON, arguments the schema refuses; turn 2: a tool the app does not have, beside one that works. */
const MISTAKES = script(
  [
    call('call_1', 'get_weather', { city: 'Oslo' }),
    call('call_2', 'get_weather', { city: 'Atlantis' }),
    call('call_3', 'get_weather', '{"city": Oslo'),
    call('call_4', 'get_weather', { town: 'Oslo' }),
  ],
  [call('call_5', 'get_forecast', { city: 'Oslo' }), call('call_6', 'get_weather', { city: 'Bergen' })],
);

/** Every request's input (what the model read), the final text and the SDK's warnings of one run. */
async function conversation(route: Route, listener?: object) {
  const api = await apiFor(MISTAKES);
  // the SDK warns on the console about arguments that are not JSON
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    const text = await run(route, api.serverURL, [weatherTool(route)], listener);
    return { text, inputs: api.requests.map((request) => request.body.input), warnings: warn.mock.calls };
  } finally {
    warn.mockRestore();
    await closeApi?.();
    closeApi = undefined;
  }
}

describe.each(ROUTES)("the model's mistakes, through $name", (route) => {
  it("'rethrow': what the model reads and what the app gets are as without the package; each call one span, one sample, a failed one one error", async () => {
    const bare = await conversation(route);
    const observed = await conversation(route, telemetry.listener());
    expect(observed).toEqual(bare);

    const byId = new Map(toolSpans().map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span]));
    expect([...byId.keys()].sort()).toEqual(['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6']);
    expect(toolSpans()).toHaveLength(6);
    expect(
      ['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6'].map((id) => {
        const span = byId.get(id);
        return [id, span?.name, span?.attributes[ATTR_ERROR_TYPE], span?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]];
      }),
    ).toEqual([
      ['call_1', 'execute_tool get_weather', undefined, undefined],
      ['call_2', 'execute_tool get_weather', 'Error', undefined],
      ['call_3', 'execute_tool get_weather', 'SyntaxError', 'model'],
      ['call_4', 'execute_tool get_weather', 'ZodError', 'model'],
      ['call_5', 'execute_tool get_forecast', 'UnknownToolError', 'model'],
      ['call_6', 'execute_tool get_weather', undefined, undefined],
    ]);
    const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(samples.reduce((sum, point) => sum + point.value.count, 0)).toBe(6);
    expect(
      samples
        .map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.attributes[ATTR_ERROR_TYPE], point.value.count])
        .sort(),
    ).toEqual([
      ['_unknown', 'UnknownToolError', 1],
      ['get_weather', undefined, 2],
      ['get_weather', 'Error', 1],
      ['get_weather', 'SyntaxError', 1],
      ['get_weather', 'ZodError', 1],
    ]);
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.reduce((sum, point) => sum + point.value, 0)).toBe(4);
  });

  it("'report': the model reads the listener's text as a failed tool's output for each mistake, a call to an unknown tool answered too", async () => {
    const observed = await conversation(route, telemetry.listener({ errorPolicy: 'report' }));
    expect(observed.text).toBe('done');
    const outputs = observed.inputs.flatMap((input) =>
      (Array.isArray(input) ? input : []).filter((item) => item.type === 'function_call_output'),
    );
    const last = new Map(outputs.map((item) => [item.call_id, JSON.parse(item.output)]));
    expect(last.get('call_1')).toEqual({ city: 'Oslo', sky: 'rain' });
    expect(last.get('call_2')).toEqual({ error: "Tool 'get_weather' failed: no weather for Atlantis" });
    expect(last.get('call_3').error).toMatch(/^Tool 'get_weather' failed: Failed to parse tool call arguments/);
    expect(last.get('call_4').error).toMatch(/^Tool 'get_weather' failed: .*expected string/s);
    expect(last.get('call_5')).toEqual({
      error: "Tool 'get_forecast' failed: the model called a tool that is not among callModel’s tools",
    });
    expect(last.get('call_6')).toEqual({ city: 'Bergen', sky: 'rain' });
    expect(toolSpans()).toHaveLength(6);
  });
});

describe.each(ROUTES)('instrumentModelResult, the rest of callModel, through $name', (route) => {
  it('identical calls in one round: one span each, each with its own id, run concurrently as without the package', async () => {
    const api = await apiFor(
      script([call('call_a', 'slow_echo', { text: 'hi' }), call('call_b', 'slow_echo', { text: 'hi' })]),
    );
    let running = 0;
    let mostAtOnce = 0;
    const slowEcho = route.tool({
      name: 'slow_echo',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }: { text: string }) => {
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return { text };
      },
    } as never);
    expect(await run(route, api.serverURL, [slowEcho], telemetry.listener())).toBe('done');
    expect(mostAtOnce).toBe(2);
    expect(
      toolSpans()
        .map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])
        .sort(),
    ).toEqual(['call_a', 'call_b']);
  });

  it("the app's tool is run in place: its `execute` with its own `function` as `this`, state kept across calls, nothing of it changed", async () => {
    const api = await apiFor(script([call('call_1', 'count', {})], [call('call_2', 'count', {})]));
    const counter = route.tool({
      name: 'count',
      inputSchema: z.object({}),
      execute(this: { calls?: number }) {
        this.calls = (this.calls ?? 0) + 1;
        return { calls: this.calls };
      },
    } as never) as { function: Record<string, unknown> };
    const keys = Reflect.ownKeys(counter.function);
    const execute = counter.function.execute;
    expect(await run(route, api.serverURL, [counter], telemetry.listener())).toBe('done');
    expect(toolOutputsIn(api.requests[2])).toEqual([
      { callId: 'call_1', output: '{"calls":1}' },
      { callId: 'call_2', output: '{"calls":2}' },
    ]);
    expect(counter.function.calls).toBe(2);
    expect(counter.function.execute).toBe(execute);
    expect(Reflect.ownKeys(counter.function)).toEqual([...keys, 'calls']);
    expect(toolSpans()).toHaveLength(2);
  });

  it("a generator tool (eventSchema): one span per call ended with its last value; 'report' makes a throw mid-stream the listener's text", async () => {
    const progress = (fail: boolean) =>
      route.tool({
        name: 'progress',
        inputSchema: z.object({ steps: z.number() }),
        eventSchema: z.object({ step: z.number() }),
        outputSchema: z.object({ done: z.boolean() }),
        execute: async function* ({ steps }: { steps: number }) {
          for (let step = 1; step <= steps; step++) yield { step };
          if (fail) throw new Error('lost the thread');
          return { done: true };
        },
      } as never);
    for (const fail of [false, true]) {
      const api = await apiFor(script([call(`call_${fail}`, 'progress', { steps: 2 })]));
      const listener = telemetry.listener({ errorPolicy: 'report' });
      expect(await run(route, api.serverURL, [progress(fail)], listener)).toBe('done');
      expect(toolOutputsIn(api.requests[1])).toEqual([
        {
          callId: `call_${fail}`,
          output: fail ? JSON.stringify({ error: "Tool 'progress' failed: lost the thread" }) : '{"done":true}',
        },
      ]);
      await closeApi?.();
      closeApi = undefined;
    }
    expect(toolSpans().map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.status.code])).toEqual([
      ['call_false', SpanStatusCode.UNSET],
      ['call_true', SpanStatusCode.ERROR],
    ]);
  });

  it("approvals: the calls run before the pause and the approved ones run on resume, each one span with its id and the conversation's id", async () => {
    const api = await apiFor(
      script([call('call_a', 'get_weather', { city: 'Oslo' }), call('call_b', 'book', { city: 'Oslo' })]),
    );
    const book = route.tool({
      name: 'book',
      inputSchema: z.object({ city: z.string() }),
      requireApproval: true,
      execute: async ({ city }: { city: string }) => ({ booked: city }),
    } as never);
    const tools = [weatherTool(route), book];
    const kept: { state: { id?: string; status?: string } | null } = { state: null };
    const state = {
      load: async () => kept.state,
      save: async (next: typeof kept.state) => {
        kept.state = next;
      },
    };
    const ask = (extra: object) =>
      (
        instrumentModelResult(
          route.callModel(api.serverURL, { model: 'openai/gpt-fake', input: 'Book', tools, state, ...extra }) as object,
          telemetry.listener(),
        ) as ModelResultLike
      ).getText();
    await ask({});
    expect(kept.state?.status).toBe('awaiting_approval');
    expect(await ask({ approveToolCalls: ['call_b'] })).toBe('done');
    expect(toolOutputsIn(api.requests[1])).toEqual([
      { callId: 'call_a', output: JSON.stringify({ city: 'Oslo', sky: 'rain' }) },
      { callId: 'call_b', output: JSON.stringify({ booked: 'Oslo' }) },
    ]);
    const spans = toolSpans();
    expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['execute_tool get_weather', 'call_a'],
      ['execute_tool book', 'call_b'],
    ]);
    expect(kept.state?.id).toMatch(/^conv_/);
    for (const span of spans) expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(kept.state?.id);
  });
});

describe('instrumentModelResult, its arguments', () => {
  it('is a TypeError for what is not a ModelResult, or a listener that is not one', () => {
    expect(() => instrumentModelResult({ getText: () => '' }, telemetry.listener())).toThrowError(
      /instrumentModelResult: `result` must be the ModelResult callModel returns, got object/,
    );
    const result = ROUTES[0].callModel('http://127.0.0.1:9', { model: 'm', input: 'x' }) as object;
    expect(() => instrumentModelResult(result, null as never)).toThrowError(TypeError);
  });

  it('a ModelResult instrumented twice keeps its first listener, said on diag', async () => {
    const api = await apiFor(script([call('call_1', 'get_weather', { city: 'Oslo' })]));
    const route = ROUTES[0];
    const result = route.callModel(api.serverURL, { model: 'm', input: 'x', tools: [weatherTool(route)] }) as object;
    const first = telemetry.listener();
    const second = { beforeCall: vi.fn() };
    expect(instrumentModelResult(instrumentModelResult(result, first), second)).toBe(result);
    expect(await (result as ModelResultLike).getText()).toBe('done');
    expect(second.beforeCall).not.toHaveBeenCalled();
    expect(toolSpans()).toHaveLength(1);
  });
});

describe('instrumentModelResult with @openrouter/agent hooks', () => {
  it("a PreToolUse hook's new arguments, awaited before the tool runs: the span has them and the call's id", async () => {
    const api = await apiFor(
      script([call('call_1', 'get_weather', { city: 'Oslo' }), call('call_2', 'get_weather', { city: 'Rome' })]),
    );
    const route = ROUTES[0];
    const hooks = {
      PreToolUse: [
        {
          handler: async ({ toolInput }: { toolInput: { city: string } }) => {
            await new Promise((resolve) => setTimeout(resolve, toolInput.city === 'Oslo' ? 20 : 0));
            return { mutatedInput: { city: toolInput.city.toUpperCase() } };
          },
        },
      ],
    };
    const result = route.callModel(api.serverURL, {
      model: 'm',
      input: 'x',
      tools: [weatherTool(route)],
      hooks,
    }) as object;
    const listener = telemetry.listener({ captureContent: true });
    expect(await (instrumentModelResult(result, listener) as ModelResultLike).getText()).toBe('done');
    expect(
      toolSpans()
        .map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes['gen_ai.tool.call.arguments']])
        .sort(),
    ).toEqual([
      ['call_1', '{"city":"OSLO"}'],
      ['call_2', '{"city":"ROME"}'],
    ]);
  });
});
