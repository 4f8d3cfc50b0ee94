// Each process of the example starts its own OpenTelemetry SDK: its spans go to the example's
// collector on 127.0.0.1 (to print the tree) and to the standard OTLP endpoint (Jaeger of the
// compose stack, http://localhost:4318 unless OTEL_EXPORTER_OTLP_ENDPOINT says otherwise).
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { CountingTraceExporter } from '../demo/trace-delivery.js';

export function startTelemetry(serviceName: string, collectorUrl: string) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // W3C trace context and baggage: what the MCP adapter injects into and extracts from params._meta
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  const jaeger = new CountingTraceExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [
      new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${collectorUrl}/v1/traces` }) }),
      new SimpleSpanProcessor({ exporter: jaeger }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  return { jaeger, shutdown: () => provider.shutdown() };
}
