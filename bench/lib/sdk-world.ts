import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  type ExportResult,
  ExportResultCode,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';

/** A span exporter that accepts everything at once and keeps nothing: the cost measured is the SDK's. */
class DroppingSpanExporter implements SpanExporter {
  exported = 0;
  /** Spans per instrumentation scope: shows that every library's spans reached this SDK. */
  readonly byScope: Record<string, number> = {};
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exported += spans.length;
    for (const span of spans) {
      const scope = span.instrumentationScope.name;
      this.byScope[scope] = (this.byScope[scope] ?? 0) + 1;
    }
    resultCallback({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

class DroppingMetricExporter implements PushMetricExporter {
  exports = 0;
  export(_metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    this.exports++;
    resultCallback({ code: ExportResultCode.SUCCESS });
  }
  selectAggregationTemporality() {
    return AggregationTemporality.CUMULATIVE;
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

/**
 * Registers the real SDK globally, as `NodeSDK` (and `startToolCallTelemetry`) does: an
 * AsyncLocalStorage context manager, a tracer provider with the default sampler and a
 * BatchSpanProcessor with its default queue (2048) and batch (512) sizes, and a meter provider with
 * a periodic reader. Only the exporters are fakes, so that no I/O is measured.
 */
export function installSdk() {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const spanExporter = new DroppingSpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: spanExporter })] });
  const metricExporter = new DroppingMetricExporter();
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 10_000 })],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    /** Spans that reached the exporter (the rest were dropped by the batch processor's full queue). */
    exportedSpans: () => spanExporter.exported,
    exportedSpansByScope: () => ({ ...spanExporter.byScope }),
    async flush() {
      await tracerProvider.forceFlush();
    },
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

/**
 * NodeSDK's default propagator, W3C trace context and baggage: what carries the trace context across
 * a process boundary (the MCP round trip's `params._meta`). The per-call worlds do without it: nothing
 * they time crosses one.
 */
export function installPropagator(): void {
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
}
