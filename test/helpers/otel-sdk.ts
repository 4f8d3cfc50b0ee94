import { context, propagation, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener, type OpenTelemetryToolCallListenerOptions } from 'otel-tool-calls';
import { afterEach } from 'vitest';

/** A real SDK metric reader that collects on demand. */
class CollectingMetricReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

let contextManagerRegistered = false;

/** The real OpenTelemetry SDK with an in-memory span exporter and a collecting metric reader (and `views`, if given). */
export function createTestTelemetry(views?: ViewOptions[]) {
  if (!contextManagerRegistered) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    // what NodeSDK registers by default: the MCP adapter propagates through the global propagator
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    contextManagerRegistered = true;
  }
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter })] });
  const metricReader = new CollectingMetricReader();
  const meterProvider = new MeterProvider({ readers: [metricReader], views });
  const tracer = tracerProvider.getTracer('test');

  return {
    tracerProvider,
    meterProvider,
    tracer,
    spans: (): ReadableSpan[] => spanExporter.getFinishedSpans(),
    span(name: string): ReadableSpan {
      const found = spanExporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`expected one span named ${name}, found ${found.length}`);
      return found[0] as ReadableSpan;
    },
    async metric(name: string): Promise<MetricData | undefined> {
      const { resourceMetrics } = await metricReader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
    },
    async histogramPoints(name: string): Promise<DataPoint<Histogram>[]> {
      return ((await this.metric(name))?.dataPoints ?? []) as DataPoint<Histogram>[];
    },
    async counterPoints(name: string): Promise<DataPoint<number>[]> {
      return ((await this.metric(name))?.dataPoints ?? []) as DataPoint<number>[];
    },
    /** Runs `fn` inside an active parent span and returns that span. */
    async withParent<R>(fn: (parent: Span) => Promise<R> | R): Promise<{ parent: Span; result: R }> {
      return tracer.startActiveSpan('parent', async (parent) => {
        try {
          return { parent, result: await fn(parent) };
        } finally {
          parent.end();
        }
      });
    },
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

export type TestTelemetry = ReturnType<typeof createTestTelemetry>;

/**
 * A fresh SDK for each test of the file (shut down after it), and `listener()`: an
 * `OpenTelemetryToolCallListener` on it. The returned object always points at the current test's SDK.
 */
export function useTestTelemetry() {
  let current = createTestTelemetry();
  afterEach(async () => {
    await current.shutdown();
    current = createTestTelemetry();
  });
  const listener = (options: OpenTelemetryToolCallListenerOptions = {}) =>
    new OpenTelemetryToolCallListener({
      tracerProvider: current.tracerProvider,
      meterProvider: current.meterProvider,
      ...options,
    });
  return new Proxy({ listener } as TestTelemetry & { listener: typeof listener }, {
    get: (target, key) => (key === 'listener' ? target.listener : Reflect.get(current, key)),
  });
}

/** Seconds between a span's start and end, from the SDK's own hrtime fields. */
export function spanSeconds(span: ReadableSpan): number {
  return span.duration[0] + span.duration[1] / 1e9;
}

export { trace };
