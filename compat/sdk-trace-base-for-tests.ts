import {
  type BatchSpanProcessorOptions,
  BatchSpanProcessor as BatchSpanProcessorV3,
  SimpleSpanProcessor as SimpleSpanProcessorV3,
  type SpanExporter,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/**
 * The part of `@opentelemetry/sdk-trace-base` 2.x that the repo's tests use, on top of SDK 3's
 * `@opentelemetry/sdk-trace`. SDK 3 publishes no `sdk-trace-base`: `BasicTracerProvider` became
 * `TracerProvider`, and the span processors take `{ exporter }` instead of `(exporter, config)`.
 * sdk-trace-base 2.12 is itself this same thin layer over `@opentelemetry/sdk-trace`.
 *
 * compat/vitest.config.ts serves this module only to importers under test/ (test helpers that build
 * an in-memory SDK), never to src/: the package's own code must work with SDK 3 as it is. Remove
 * it once test/ imports `@opentelemetry/sdk-trace`, which exists in SDK 2.9+ and 3.x alike.
 */
export {
  InMemorySpanExporter,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';

export class BasicTracerProvider extends TracerProvider {}

export class SimpleSpanProcessor extends SimpleSpanProcessorV3 {
  constructor(exporter: SpanExporter) {
    super({ exporter });
  }
}

export class BatchSpanProcessor extends BatchSpanProcessorV3 {
  constructor(exporter: SpanExporter, config?: Omit<BatchSpanProcessorOptions, 'exporter'>) {
    super({ exporter, ...config });
  }
}
