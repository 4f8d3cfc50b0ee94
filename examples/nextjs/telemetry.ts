import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { registerOTel } from '@vercel/otel';
import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';

/**
 * @vercel/otel with the tool calls observed. Next.js loads `ai` (a server external package) with `import()`,
 * as an ES module, patched only through Node's loader hook: @vercel/otel registers none, ToolCallsInstrumentation
 * registers it for the files it patches, before any route loads. Traces go where OTEL_EXPORTER_OTLP_ENDPOINT says; for
 * metrics it starts no meter provider unless it is given a reader, so the `gen_ai.execute_tool.duration`
 * histogram needs one: an OTLP reader, every OTEL_METRIC_EXPORT_INTERVAL ms (60 s by default).
 */
export function registerTelemetry(): void {
  registerOTel({
    serviceName: 'nextjs-weather-agent',
    instrumentations: ['auto', new ToolCallsInstrumentation()],
    metricReaders: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: Number(process.env.OTEL_METRIC_EXPORT_INTERVAL ?? 60_000),
      }),
    ],
  });
}
