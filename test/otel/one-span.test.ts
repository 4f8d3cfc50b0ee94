import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const samples = async () =>
  (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).reduce((n, point) => n + point.value.count, 0);
const errors = async () =>
  (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).map(({ attributes, value }) => ({ attributes, value }));
const toolSpans = () => telemetry.spans().filter((span) => span.name.startsWith('execute_tool '));

const weather = () =>
  functionToolCallback({ name: 'weather' }, async ({ city }: { city: string }) => `sunny in ${city}`);

describe('one span and one sample per tool call, whoever else traces it', () => {
  it('a tool wrapped twice by this package gives one span and one histogram sample', async () => {
    const listener = telemetry.listener();
    const twice = ToolCallListeners.wrap(ToolCallListeners.wrap(weather(), listener), telemetry.listener());

    expect(await twice.call({ city: 'Oslo' }, { toolCallId: 'call_1' })).toBe('sunny in Oslo');

    expect(toolSpans().map((span) => span.name)).toEqual(['execute_tool weather']);
    expect(toolSpans()[0]?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_1');
    expect(await samples()).toBe(1);
  });

  it('a failure inside both layers is one error increment, with the outcome the caller saw', async () => {
    const failing = functionToolCallback({ name: 'weather' }, async () => {
      throw Object.assign(new Error('upstream down'), { code: 'HTTP_503' });
    });
    // the inner layer rethrows, the outer one reports: the caller gets the report
    const inner = ToolCallListeners.wrap(failing, telemetry.listener({ errorPolicy: 'rethrow' }));
    const outer = ToolCallListeners.wrap(inner, telemetry.listener({ errorPolicy: 'report' }));

    expect(await outer.call({ city: 'Oslo' })).toBe("Tool 'weather' failed: upstream down");

    const [span] = toolSpans();
    expect(toolSpans()).toHaveLength(1);
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('HTTP_503');
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    expect(await samples()).toBe(1);
    expect(await errors()).toEqual([
      {
        attributes: expect.objectContaining({
          [ATTR_ERROR_TYPE]: 'HTTP_503',
          [ATTR_TOOL_CALL_ERROR_OUTCOME]: 'reported',
        }),
        value: 1,
      },
    ]);
  });

  it('a failure the inner layer reported (the outer tool returns its text) still counts, once', async () => {
    const failing = functionToolCallback({ name: 'weather' }, async () => {
      throw new TypeError('bad city');
    });
    const inner = ToolCallListeners.wrap(failing, telemetry.listener({ errorPolicy: 'report' }));
    const outer = ToolCallListeners.wrap(inner, telemetry.listener());

    expect(await outer.call({ city: '' })).toBe("Tool 'weather' failed: bad city");

    expect(toolSpans()).toHaveLength(1);
    expect(toolSpans()[0]?.attributes[ATTR_ERROR_TYPE]).toBe('TypeError');
    expect(await samples()).toBe(1);
    expect(await errors()).toEqual([
      { attributes: expect.objectContaining({ [ATTR_TOOL_CALL_ERROR_OUTCOME]: 'reported' }), value: 1 },
    ]);
  });

  it('keepNestedSpans: true gives each layer its span and its sample, the inner one a child of the outer', async () => {
    const twice = ToolCallListeners.wrap(
      ToolCallListeners.wrap(weather(), telemetry.listener({ keepNestedSpans: true })),
      telemetry.listener(),
    );

    await twice.call({ city: 'Oslo' });

    const [inner, outer] = toolSpans();
    expect(toolSpans()).toHaveLength(2);
    expect(inner?.parentSpanContext?.spanId).toBe(outer?.spanContext().spanId);
    expect(await samples()).toBe(2);
  });

  it('another tool called from a tool body is another call: its own span, child of the first', async () => {
    const lookup = ToolCallListeners.wrap(
      functionToolCallback({ name: 'geocode' }, () => 'Oslo'),
      telemetry.listener(),
    );
    const outer = ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, async () => `sunny in ${lookup.call(undefined)}`),
      telemetry.listener(),
    );

    await outer.call(undefined);

    expect(toolSpans().map((span) => span.name)).toEqual(['execute_tool geocode', 'execute_tool weather']);
    expect(await samples()).toBe(2);
  });

  it('a call with another tool call id inside the span is another call', async () => {
    const inner = ToolCallListeners.wrap(weather(), telemetry.listener());
    const outer = ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, () => inner.call({ city: 'Oslo' }, { toolCallId: 'call_2' })),
      telemetry.listener(),
    );

    await outer.call({ city: 'Oslo' }, { toolCallId: 'call_1' });

    expect(toolSpans().map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_2', 'call_1']);
  });

  it("joins another instrumentation's execute_tool span for the same call: its attributes, this package's sample", async () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const failing = ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, () => {
        throw new RangeError('no such city');
      }),
      listener,
    );
    const theirs = telemetry.tracer.startSpan('execute_tool weather', {
      attributes: {
        [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
        [ATTR_GEN_AI_TOOL_NAME]: 'weather',
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_9',
      },
    });

    const text = context.with(trace.setSpan(context.active(), theirs), () =>
      failing.call({ city: 'Atlantis' }, { toolCallId: 'call_9' }),
    );
    theirs.end();

    expect(text).toBe("Tool 'weather' failed: no such city");
    expect(toolSpans()).toHaveLength(1);
    const [span] = toolSpans();
    expect(span?.instrumentationScope.name).not.toBe('otel-tool-calls');
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('RangeError');
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    expect(await samples()).toBe(1);
    expect((await errors())[0]?.value).toBe(1);
  });

  it('an ended span, or one that says nothing of a tool call, is not joined', async () => {
    const listener = telemetry.listener();
    const tool = ToolCallListeners.wrap(weather(), listener);
    const ended = telemetry.tracer.startSpan('execute_tool weather', {
      attributes: { [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool', [ATTR_GEN_AI_TOOL_NAME]: 'weather' },
    });
    ended.end();
    const unrelated = [
      telemetry.tracer.startSpan('GET /weather'),
      // named for another tool, or attributed as another operation: not this call
      telemetry.tracer.startSpan('execute_tool forecast'),
      telemetry.tracer.startSpan('execute_tool weather', { attributes: { [ATTR_GEN_AI_OPERATION_NAME]: 'chat' } }),
      // Mastra's name, from a scope that is not its bridge's
      telemetry.tracer.startSpan("tool: 'weather'"),
    ];

    await context.with(trace.setSpan(context.active(), ended), () => tool.call({ city: 'Oslo' }));
    for (const span of unrelated) {
      await context.with(trace.setSpan(context.active(), span), () => tool.call({ city: 'Oslo' }));
      span.end();
    }

    const ours = toolSpans().filter((span) => span.instrumentationScope.name === 'otel-tool-calls');
    expect(ours).toHaveLength(5);
    expect(await samples()).toBe(5);
  });

  it("joins a span named execute_tool {tool} before its instrumentation attributes it (Google ADK): the call's attributes and error on it", async () => {
    const failing = ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, async () => {
        throw new RangeError('no such city');
      }),
      telemetry.listener(),
    );
    // as ADK starts it: the name only, attributes set after a success
    const theirs = telemetry.tracerProvider.getTracer('gcp.vertex.agent').startSpan('execute_tool weather');

    const call = context.with(trace.setSpan(context.active(), theirs), () =>
      failing.call({ city: 'Atlantis' }, { toolCallId: 'call_7' }),
    );
    await expect(call).rejects.toThrow('no such city');
    theirs.end();

    expect(toolSpans()).toHaveLength(1);
    const [span] = toolSpans();
    expect(span?.instrumentationScope.name).toBe('gcp.vertex.agent');
    expect(span?.attributes[ATTR_GEN_AI_OPERATION_NAME]).toBe('execute_tool');
    expect(span?.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('weather');
    expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_7');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no such city' });
    expect(await samples()).toBe(1);
    expect((await errors())[0]?.value).toBe(1);
  });

  it("joins the span Mastra's OTel bridge names tool: '{tool}' while the tool runs (the call's foreignSpan)", async () => {
    const tool = ToolCallListeners.wrap(weather(), telemetry.listener());
    const theirs = telemetry.tracerProvider.getTracer('@mastra/otel-bridge').startSpan("tool: 'weather'");
    // what the Mastra adapter says of its calls (ToolCallInfo.foreignSpan)
    const foreignSpan = { scope: '@mastra/otel-bridge', name: "tool: 'weather'" };

    await context.with(trace.setSpan(context.active(), theirs), () =>
      tool.call({ city: 'Oslo' }, { toolCallId: 'call_8', foreignSpan }),
    );
    theirs.end();

    expect(telemetry.spans().map((span) => span.name)).toEqual(["tool: 'weather'"]);
    expect(telemetry.spans()[0]?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_8');
    expect(await samples()).toBe(1);
  });

  it('a nested call that outlives the call it joined records its own sample', async () => {
    let nested: Promise<unknown> | undefined;
    let release: () => void = () => {};
    const slow = ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, () => new Promise((resolve) => (release = () => resolve('late')))),
      telemetry.listener(),
    );
    const outer = ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, (input: unknown) => {
        nested = slow.call(input); // not awaited: the outer call ends first
        return 'early';
      }),
      telemetry.listener(),
    );

    expect(outer.call({ city: 'Oslo' })).toBe('early');
    release();
    expect(await nested).toBe('late');

    expect(toolSpans()).toHaveLength(1);
    expect(await samples()).toBe(2);
  });
});
