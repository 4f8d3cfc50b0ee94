/**
 * The correctness check of the benchmark, started by bench/run.ts in a process of its own: the span
 * and the histogram sample of one call share their start and end times. The listener reads
 * `performance.now()` once at the start and once at the end and gives both readings to the span and
 * their difference to `gen_ai.execute_tool.duration`; if it read the clock separately for each (or
 * the histogram came from another source), the span's duration and the sample would differ by the
 * time between two readings (tens of ns at least).
 *
 * One call of an async and of a sync tool through the OpenTelemetry listener, on the real SDK
 * registered globally with in-memory exporters (a delta-temporality reader, so that each flush holds
 * that one call's point). The SDK stores span times as whole nanoseconds (HrTime), rounding each end:
 * the two agree to within 2 ns when they come from the same two readings.
 *
 * Usage: shared-times.ts --out <file.json>
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { hrTimeToNanoseconds } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { asyncWeatherTool, INPUT, syncWeatherTool, TOOL_CONTEXT } from './lib/tools.js';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
if (!values.out) throw new Error('usage: shared-times.ts --out <file.json>');

/** The largest difference accepted: each end of the span is rounded to a whole nanosecond. */
const TOLERANCE_NS = 2;

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spanExporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(
  new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter })] }),
);
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(meterProvider);

const listener = new OpenTelemetryToolCallListener();

interface Check {
  tool: 'async' | 'sync';
  spanDurationNs: number;
  histogramSumNs: number;
  differenceNs: number;
  met: boolean;
}

async function check(tool: 'async' | 'sync'): Promise<Check> {
  spanExporter.reset();
  metricExporter.reset();
  if (tool === 'async') await ToolCallListeners.wrap(asyncWeatherTool(), listener).call(INPUT, TOOL_CONTEXT);
  else ToolCallListeners.wrap(syncWeatherTool(), listener).call(INPUT, TOOL_CONTEXT);
  await reader.forceFlush();
  const spans = spanExporter.getFinishedSpans();
  const points = metricExporter
    .getMetrics()
    .flatMap((resource) => resource.scopeMetrics)
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)
    .flatMap((metric) => metric.dataPoints as { value: Histogram }[]);
  // a broken check, not a missed target: the run fails
  const value = points[0]?.value;
  if (spans.length !== 1 || points.length !== 1 || value?.count !== 1 || value.sum === undefined) {
    throw new Error(`${tool}: expected one span and one histogram point of one sample`);
  }
  const spanDurationNs = hrTimeToNanoseconds((spans[0] as (typeof spans)[number]).duration);
  const histogramSumNs = value.sum * 1e9;
  const differenceNs = Math.abs(spanDurationNs - histogramSumNs);
  return {
    tool,
    spanDurationNs,
    histogramSumNs,
    differenceNs,
    met: differenceNs <= TOLERANCE_NS,
  };
}

const checks = [await check('async'), await check('sync')];
writeFileSync(values.out, JSON.stringify({ toleranceNs: TOLERANCE_NS, checks }));
await Promise.all([meterProvider.shutdown()]);
