import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type Context, context, propagation, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  GEN_AI_DURATION_BUCKETS,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { createTestTelemetry, spanSeconds, useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const listener = telemetry.listener;

const slow = functionToolCallback({ name: 'slow' }, async (ms: number) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return 'done';
});
const broken = functionToolCallback({ name: 'broken' }, async () => {
  throw Object.assign(new Error('db down'), { code: 'ECONNRESET' });
});

describe('gen_ai.execute_tool.duration', () => {
  it('is a histogram in seconds with the semantic-convention bucket boundaries', async () => {
    await ToolCallListeners.wrap(slow, listener()).call(1);
    const metric = await telemetry.metric(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(metric?.descriptor.unit).toBe('s');
    const [point] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(point?.value.buckets.boundaries).toEqual([...GEN_AI_DURATION_BUCKETS]);
    expect(GEN_AI_DURATION_BUCKETS).toEqual([
      0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
    ]);
  });

  it('records one sample per call, successes and failures alike, equal to the span duration', async () => {
    const observed = listener();
    await ToolCallListeners.wrap(slow, observed).call(15);
    await expect(ToolCallListeners.wrap(broken, observed).call(undefined)).rejects.toThrow('db down');
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points).toHaveLength(2);
    const byTool = (name: string) => points.find((point) => point.attributes[ATTR_GEN_AI_TOOL_NAME] === name);
    expect(byTool('slow')?.value.count).toBe(1);
    expect(byTool('broken')?.value.count).toBe(1);
    expect(byTool('slow')?.value.sum).toBeCloseTo(spanSeconds(telemetry.span('execute_tool slow')), 6);
    expect(byTool('broken')?.value.sum).toBeCloseTo(spanSeconds(telemetry.span('execute_tool broken')), 6);
    expect(byTool('slow')?.value.sum).toBeGreaterThanOrEqual(0.014);
  });

  it('shares its two clock readings with the span, which starts at the wall clock', async () => {
    const before = Date.now();
    await ToolCallListeners.wrap(slow, listener()).call(3);
    const after = Date.now();
    const span = telemetry.span('execute_tool slow');
    const startMs = span.startTime[0] * 1000 + span.startTime[1] / 1e6;
    expect(startMs).toBeGreaterThanOrEqual(before);
    expect(startMs).toBeLessThanOrEqual(after);
    const [point] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    // the SDK keeps whole nanoseconds: the same readings agree within a rounding
    expect(Math.abs((point?.value.sum ?? 0) * 1e9 - (span.duration[0] * 1e9 + span.duration[1]))).toBeLessThan(2);
  });

  it("is recorded in the context the call started in: a view's attributes processor sees the caller's baggage and span", async () => {
    const seen: Context[] = [];
    const withTenant = createTestTelemetry([
      {
        instrumentName: METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
        attributesProcessors: [
          {
            process(incoming, measured) {
              // the SDK passes the context given to record(), or the active one
              if (measured === undefined) throw new Error('no context');
              seen.push(measured);
              const tenant = propagation.getBaggage(measured)?.getEntry('tenant')?.value;
              return tenant === undefined ? incoming : { ...incoming, 'app.tenant': tenant };
            },
          },
        ],
      },
    ]);
    try {
      const observed = new OpenTelemetryToolCallListener({
        tracerProvider: withTenant.tracerProvider,
        meterProvider: withTenant.meterProvider,
      });
      const caller = propagation.setBaggage(context.active(), propagation.createBaggage({ tenant: { value: 'acme' } }));
      const { parent } = await context.with(caller, () =>
        withTenant.withParent(() => ToolCallListeners.wrap(slow, observed).call(0)),
      );
      const [point] = await withTenant.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(point?.attributes['app.tenant']).toBe('acme');
      expect(seen.map((measured) => trace.getSpan(measured)?.spanContext().spanId)).toEqual([
        parent.spanContext().spanId,
      ]);
    } finally {
      await withTenant.shutdown();
    }
  });

  it("keeps no context object of its own while a call is in flight (the tool's body ran in one)", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let settle: (value: string) => void = () => {};
    const pending = new Promise<string>((resolve) => {
      settle = resolve;
    });
    let bodyContext: WeakRef<Context> | undefined;
    let ranInSpan = false;
    const waiting = functionToolCallback({ name: 'waiting' }, () => {
      const active = context.active();
      ranInSpan = trace.getSpan(active) !== undefined;
      bodyContext = new WeakRef(active);
      return pending; // made outside the call: only the listener could keep the body's context alive
    });
    const result = ToolCallListeners.wrap(waiting, listener()).call(undefined);
    expect(ranInSpan).toBe(true);
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    let collected = false;
    // a deref keeps its target alive until the end of the job: each collection runs in a job of its own
    for (let attempt = 0; attempt < 20 && !collected; attempt++) {
      await tick();
      gc();
      await tick();
      collected = bodyContext?.deref() === undefined;
    }
    expect(collected).toBe(true);
    settle('done');
    await expect(result).resolves.toBe('done');
    expect(telemetry.span('execute_tool waiting').ended).toBe(true);
  });

  it('carries only the allow-listed, low-cardinality attributes', async () => {
    const observed = listener({ agentName: 'planner' });
    await ToolCallListeners.wrap(slow, observed).call(0, { toolCallId: 'call_1', attributes: { 'app.user': 'u1' } });
    await expect(ToolCallListeners.wrap(broken, observed).call(undefined, { toolCallId: 'call_2' })).rejects.toThrow();
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points.map((point) => point.attributes)).toEqual([
      { [ATTR_GEN_AI_TOOL_NAME]: 'slow', [ATTR_GEN_AI_TOOL_TYPE]: 'function', [ATTR_GEN_AI_AGENT_NAME]: 'planner' },
      {
        [ATTR_GEN_AI_TOOL_NAME]: 'broken',
        [ATTR_GEN_AI_TOOL_TYPE]: 'function',
        [ATTR_GEN_AI_AGENT_NAME]: 'planner',
        [ATTR_ERROR_TYPE]: 'ECONNRESET',
      },
    ]);
  });
});

describe('tool_call.errors', () => {
  it('counts each failure once, by error.type and outcome, reported and rethrown alike', async () => {
    const observed = listener({ toolErrorPolicies: { broken: 'report' } });
    const flaky = functionToolCallback({ name: 'flaky' }, () => {
      throw new Error('flake');
    });
    for (let i = 0; i < 3; i++) await ToolCallListeners.wrap(broken, observed).call(undefined);
    for (let i = 0; i < 2; i++) expect(() => ToolCallListeners.wrap(flaky, observed).call(undefined)).toThrow();
    await ToolCallListeners.wrap(slow, observed).call(0);

    const metric = await telemetry.metric(METRIC_TOOL_CALL_ERRORS);
    expect(metric?.descriptor.unit).toBe('{error}');
    const points = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(points.map((point) => [point.attributes, point.value])).toEqual([
      [
        {
          [ATTR_GEN_AI_TOOL_NAME]: 'broken',
          [ATTR_GEN_AI_TOOL_TYPE]: 'function',
          [ATTR_ERROR_TYPE]: 'ECONNRESET',
          [ATTR_TOOL_CALL_ERROR_OUTCOME]: 'reported',
        },
        3,
      ],
      [
        {
          [ATTR_GEN_AI_TOOL_NAME]: 'flaky',
          [ATTR_GEN_AI_TOOL_TYPE]: 'function',
          [ATTR_ERROR_TYPE]: 'Error',
          [ATTR_TOOL_CALL_ERROR_OUTCOME]: 'rethrown',
        },
        2,
      ],
    ]);
    const durations = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(durations.reduce((total, point) => total + point.value.count, 0)).toBe(6);
  });

  it('uses the global meter provider registered after the listener was made', async () => {
    const { metrics } = await import('@opentelemetry/api');
    const early = new OpenTelemetryToolCallListener({ tracerProvider: telemetry.tracerProvider });
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    try {
      await ToolCallListeners.wrap(slow, early).call(0);
      expect(await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toHaveLength(1);
    } finally {
      metrics.disable();
    }
  });
});
