import { register } from 'node:module';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { registerOTel } from '@vercel/otel';
import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';

/**
 * @vercel/otel with the tool calls observed. Next.js loads `ai` (a server external package) with `import()`,
 * as an ES module: an instrumentation patches one only through Node's loader hook, which @vercel/otel does
 * not register, so this does, before any route loads. Its traces go where OTEL_EXPORTER_OTLP_ENDPOINT says; for
 * metrics it starts no meter provider unless it is given a reader, so the `gen_ai.execute_tool.duration`
 * histogram needs one: an OTLP reader, every OTEL_METRIC_EXPORT_INTERVAL ms (60 s by default).
 */
export function registerTelemetry(): void {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
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
