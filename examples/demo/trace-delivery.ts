// The OTLP/HTTP trace exporter, counting what the collector accepted, so that the demo can say at
// the end whether Jaeger got the spans, instead of logging every failed attempt while it runs.
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** Where the OTLP/HTTP exporter sends spans, resolved from the standard variables as it does. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT || 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

export class CountingTraceExporter implements SpanExporter {
  private readonly delegate = new OTLPTraceExporter();
  delivered = 0;
  failed = 0;
  lastError: string | undefined;

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.delegate.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.delivered += spans.length;
      else {
        this.failed += spans.length;
        this.lastError = result.error?.message ?? String(result.error);
      }
      resultCallback(result);
    });
  }

  forceFlush(): Promise<void> {
    return this.delegate.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
