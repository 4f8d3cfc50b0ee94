import { context, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import type { Callable } from '../../bench/lib/floor.js';
import { signalsFloorTool } from '../../bench/lib/signals-floor.js';
import { SIGNALS_OFF } from '../../bench/lib/signals-off.js';
import { asyncWeatherTool, INPUT, TOOL_CONTEXT, type WeatherInput } from '../../bench/lib/tools.js';
import { OpenTelemetryToolCallListener, ToolCallListeners } from '../../src/index.js';
import {
  ATTR_TOOL_CALL_REPEAT_COUNT,
  METRIC_TOOL_CALL_REPEATS,
  METRIC_TOOL_CALL_RESULT_SIZE,
} from '../../src/otel/semconv.js';
import { useGlobalTestSdk } from '../helpers/global-test-sdk.js';

// The signals' floor (bench/lib/signals-floor.ts) is only a floor if, wrapped by the listener with the
// signals off, it records what the listener with them on records: three calls with the same arguments
// in one trace, each side in a trace of its own, compared span by span and metric by metric.

const { spans, metricExporter, reader } = useGlobalTestSdk();

/** Three calls of `tool` in the trace `traceId` (a parent span context, as the bench's cases give). */
async function threeCallsInOneTrace(tool: Callable<WeatherInput, Promise<unknown>>, traceId: string) {
  const parent = trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: '00f067aa0ba902b7',
    traceFlags: TraceFlags.SAMPLED,
  });
  for (let i = 0; i < 3; i++) expect(await context.with(parent, () => tool.call(INPUT, TOOL_CONTEXT))).toBe(6);
}

/** What one scope recorded of the signals: the result size points, and the repeats counted. */
async function signalsOf(scope: string) {
  await reader.forceFlush();
  const found = metricExporter
    .getMetrics()
    .at(-1)
    ?.scopeMetrics.find((candidate) => candidate.scope.name === scope);
  const metric = (name: string) => found?.metrics.find((candidate) => candidate.descriptor.name === name);
  const sizes = metric(METRIC_TOOL_CALL_RESULT_SIZE)?.dataPoints as DataPoint<Histogram>[] | undefined;
  return {
    unit: metric(METRIC_TOOL_CALL_RESULT_SIZE)?.descriptor.unit,
    sizes: sizes?.map((point) => ({ attributes: point.attributes, count: point.value.count, sum: point.value.sum })),
    repeats: metric(METRIC_TOOL_CALL_REPEATS)?.dataPoints.map((point) => [point.attributes, point.value]),
  };
}

const repeatCounts = (traceId: string) =>
  spans
    .getFinishedSpans()
    .filter((span) => span.spanContext().traceId === traceId)
    .map((span) => span.attributes[ATTR_TOOL_CALL_REPEAT_COUNT]);

describe("the agent signals' floor (bench/lib/signals-floor.ts)", () => {
  it('records what the listener with the signals on records: repeat counts, result sizes, repeats', async () => {
    const on = ToolCallListeners.wrap(asyncWeatherTool(), new OpenTelemetryToolCallListener());
    const floor = ToolCallListeners.wrap(signalsFloorTool(), new OpenTelemetryToolCallListener(SIGNALS_OFF));
    await threeCallsInOneTrace(on, '1'.repeat(32));
    await threeCallsInOneTrace(floor, '2'.repeat(32));

    expect(repeatCounts('1'.repeat(32))).toEqual([undefined, 1, 2]);
    expect(repeatCounts('2'.repeat(32))).toEqual([undefined, 1, 2]);
    const listener = await signalsOf('otel-tool-calls');
    expect(listener).toEqual({
      unit: 'By',
      sizes: [{ attributes: { 'gen_ai.tool.name': 'get_weather' }, count: 3, sum: 3 }],
      repeats: [[{ 'gen_ai.tool.name': 'get_weather' }, 2]],
    });
    expect(await signalsOf('bench-signals-floor')).toEqual(listener);
  });
});
