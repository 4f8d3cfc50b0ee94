/**
 * What register's default configuration starts, as the packages `require()` has loaded: the trace and
 * metrics SDKs, their OTLP/protobuf exporters and the context manager (docs/zero-code.md, "A lean start").
 */
export const DEFAULT_SDK_PACKAGES = [
  '@opentelemetry/sdk-trace',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/exporter-metrics-otlp-proto',
  '@opentelemetry/context-async-hooks',
] as const;
