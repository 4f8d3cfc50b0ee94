/*
 * FORK of upstream code, kept in step by test/register/sdk-parity.test.ts.
 * Mirrors the `OTEL_*` readers of `@opentelemetry/sdk-node` 0.223.0 (SDK 2.12 line:
 * `build/src/utils.js`, `build/src/create-from-env.js`) and 0.301.0 (SDK 3.1 line: `dist/utils.mjs`,
 * `dist/create-from-env.mjs`): exporters, samplers, propagators, span limits, batch variables.
 */
import { diag, type TextMapPropagator } from '@opentelemetry/api';
import type * as Core from '@opentelemetry/core';
import type * as SdkMetrics from '@opentelemetry/sdk-metrics';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type { Sampler, SpanExporter, SpanLimits, SpanProcessor } from '@opentelemetry/sdk-trace';

/*
 * What `@opentelemetry/sdk-node`'s NodeSDK builds from the `OTEL_*` variables when its options leave
 * a part out, the same parts with the same variables, defaults and diag messages (sdk-node 0.223's
 * `sdk.ts`, `utils.ts`, `create-from-env.ts`), but each package loaded only when a variable selects
 * what is in it: the gRPC exporters for `grpc`, Zipkin for `zipkin`, Prometheus for `prometheus`, the
 * B3 and Jaeger propagators when named. NodeSDK loads all of them, and the logs SDK, whatever the
 * variables say: about half of what an app under register spent starting.
 */

/** Loads a package of the SDK (`loadOptionalPackage` for what needs it, as the SDK resolves it). */
export type LoadPackage = <Module>(name: string) => Module;

type MetricReader = SdkMetrics.MetricReader;

/**
 * The line of the SDK sdk-node brings, where NodeSDK differs between them: 3 (sdk-node 0.300 on) or 2.
 * Told by the `@opentelemetry/api` sdk-node resolves: the 3.x line requires the API 1.10, the first
 * with the Logs API in it, and the 2.x line refuses it (its peer range ends below 1.10).
 */
export function sdkLine(load: LoadPackage): 2 | 3 {
  return load<{ logs?: unknown }>('@opentelemetry/api').logs === undefined ? 2 : 3;
}

/** The parts every other one needs: the environment's readers (`@opentelemetry/core`). */
export function envReaders(load: LoadPackage): typeof Core {
  return load<typeof Core>('@opentelemetry/core');
}

/** `OTEL_METRICS_EXPORTER` (default `otlp`): NodeSDK's `getMetricReadersFromEnv`. */
export function metricReadersFromEnv(load: LoadPackage): MetricReader[] {
  const core = envReaders(load);
  const exporters = Array.from(new Set(core.getStringListFromEnv('OTEL_METRICS_EXPORTER') ?? []));
  if (exporters.length === 0) {
    diag.debug('OTEL_METRICS_EXPORTER is empty. Using default otlp exporter.');
    exporters.push('otlp');
  }
  if (exporters.includes('none')) {
    diag.info('OTEL_METRICS_EXPORTER contains "none". Metric provider will not be initialized.');
    return [];
  }
  const readers: MetricReader[] = [];
  for (const exporter of exporters) {
    if (exporter === 'otlp') {
      readers.push(periodicReaderFromEnv(load, otlpMetricExporterFromEnv(load)));
    } else if (exporter === 'console') {
      const sdkMetrics = load<typeof SdkMetrics>('@opentelemetry/sdk-metrics');
      readers.push(new sdkMetrics.PeriodicExportingMetricReader({ exporter: new sdkMetrics.ConsoleMetricExporter() }));
    } else if (exporter === 'prometheus') {
      const { PrometheusExporter } = load<typeof import('@opentelemetry/exporter-prometheus')>(
        '@opentelemetry/exporter-prometheus',
      );
      // the host and port from the variables, as NodeSDK 3.x passes them (the 2.x exporter read them itself)
      readers.push(
        new PrometheusExporter({
          host: core.getStringFromEnv('OTEL_EXPORTER_PROMETHEUS_HOST'),
          port: core.getNumberFromEnv('OTEL_EXPORTER_PROMETHEUS_PORT'),
        }),
      );
    } else {
      diag.warn(
        `Unsupported OTEL_METRICS_EXPORTER value: "${exporter}". Supported values are: otlp, console, prometheus, none.`,
      );
    }
  }
  return readers;
}

function periodicReaderFromEnv(load: LoadPackage, exporter: SdkMetrics.PushMetricExporter): MetricReader {
  const defaultTimeoutMillis = 30000;
  const defaultIntervalMillis = 60000;
  const rawInterval = positiveNumberFromEnv(load, 'OTEL_METRIC_EXPORT_INTERVAL');
  const rawTimeout = positiveNumberFromEnv(load, 'OTEL_METRIC_EXPORT_TIMEOUT');
  const exportIntervalMillis = rawInterval ?? defaultIntervalMillis;
  let exportTimeoutMillis = rawTimeout ?? defaultTimeoutMillis;
  if (exportTimeoutMillis > exportIntervalMillis) {
    const timeoutSource = rawTimeout != null ? rawTimeout.toString() : `${defaultTimeoutMillis}, default`;
    const intervalSource = rawInterval != null ? rawInterval.toString() : `${defaultIntervalMillis}, default`;
    const message = `OTEL_METRIC_EXPORT_TIMEOUT (${timeoutSource}) is greater than OTEL_METRIC_EXPORT_INTERVAL (${intervalSource}). Clamping timeout to interval value.`;
    // as NodeSDK: a warning only when both were set
    if (rawTimeout != null && rawInterval != null) diag.warn(message);
    else diag.info(message);
    exportTimeoutMillis = exportIntervalMillis;
  }
  const { PeriodicExportingMetricReader } = load<typeof SdkMetrics>('@opentelemetry/sdk-metrics');
  return new PeriodicExportingMetricReader({ exportTimeoutMillis, exportIntervalMillis, exporter });
}

/** The OTLP exporter package of a signal for a protocol; NodeSDK's fallback (with its warning) is http/protobuf. */
const OTLP_PACKAGES = {
  grpc: 'grpc',
  'http/json': 'http',
  'http/protobuf': 'proto',
} as const;

function otlpMetricExporterFromEnv(load: LoadPackage): SdkMetrics.PushMetricExporter {
  const core = envReaders(load);
  const protocol =
    (
      core.getStringFromEnv('OTEL_EXPORTER_OTLP_METRICS_PROTOCOL') ??
      core.getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL')
    )?.trim() || 'http/protobuf';
  let flavour = OTLP_PACKAGES[protocol as keyof typeof OTLP_PACKAGES];
  if (flavour === undefined) {
    diag.warn(`Unsupported OTLP metrics protocol: "${protocol}". Using http/protobuf.`);
    flavour = 'proto';
  }
  const { OTLPMetricExporter } = load<{ OTLPMetricExporter: new () => SdkMetrics.PushMetricExporter }>(
    `@opentelemetry/exporter-metrics-otlp-${flavour}`,
  );
  return new OTLPMetricExporter();
}

function otlpSpanExporterFromEnv(load: LoadPackage): SpanExporter {
  const core = envReaders(load);
  const protocol =
    core.getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    core.getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf';
  let flavour = OTLP_PACKAGES[protocol as keyof typeof OTLP_PACKAGES];
  if (flavour === undefined) {
    diag.warn(`Unsupported OTLP traces protocol: ${protocol}. Using http/protobuf.`);
    flavour = 'proto';
  }
  const { OTLPTraceExporter } = load<{ OTLPTraceExporter: new () => SpanExporter }>(
    `@opentelemetry/exporter-trace-otlp-${flavour}`,
  );
  return new OTLPTraceExporter();
}

/** `OTEL_TRACES_EXPORTER` (default `otlp`): NodeSDK's `getSpanProcessorsFromEnv`. */
export function spanProcessorsFromEnv(load: LoadPackage, selfObsMeterProvider?: MeterProvider): SpanProcessor[] {
  const core = envReaders(load);
  let names = Array.from(new Set(core.getStringListFromEnv('OTEL_TRACES_EXPORTER'))).filter((name) => name !== 'null');
  if (names[0] === 'none') {
    diag.warn('OTEL_TRACES_EXPORTER contains "none". SDK will not be initialized.');
    return [];
  }
  if (names.length === 0) {
    diag.debug('OTEL_TRACES_EXPORTER is empty. Using default otlp exporter.');
    names = ['otlp'];
  } else if (names.length > 1 && names.includes('none')) {
    diag.warn('OTEL_TRACES_EXPORTER contains "none" along with other exporters. Using default otlp exporter.');
    names = ['otlp'];
  }
  const processors: SpanProcessor[] = [];
  for (const name of names) {
    if (name === 'otlp') {
      processors.push(batchSpanProcessorFromEnv(load, otlpSpanExporterFromEnv(load), selfObsMeterProvider));
    } else if (name === 'zipkin') {
      const { ZipkinExporter } = load<{ ZipkinExporter: new () => SpanExporter }>('@opentelemetry/exporter-zipkin');
      processors.push(batchSpanProcessorFromEnv(load, new ZipkinExporter(), selfObsMeterProvider));
    } else if (name === 'console') {
      const { ConsoleSpanExporter, SimpleSpanProcessor } = load<typeof SdkTrace>('@opentelemetry/sdk-trace');
      processors.push(new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter(), selfObsMeterProvider }));
    } else {
      diag.warn(`Unrecognized OTEL_TRACES_EXPORTER value: ${name}.`);
    }
  }
  if (processors.length === 0) {
    diag.warn('Unable to set up trace exporter(s) due to invalid exporter and/or protocol values.');
  }
  return processors;
}

/** The batch processor with the `OTEL_BSP_*` variables (NodeSDK's `createBatchSpanProcessorFromEnv`). */
export function batchSpanProcessorFromEnv(
  load: LoadPackage,
  exporter: SpanExporter,
  selfObsMeterProvider?: MeterProvider,
): SpanProcessor {
  const { BatchSpanProcessor } = load<typeof SdkTrace>('@opentelemetry/sdk-trace');
  return new BatchSpanProcessor({
    exporter,
    selfObsMeterProvider,
    ...batchSpanOptionsFromEnv(load),
  } as ConstructorParameters<typeof SdkTrace.BatchSpanProcessor>[0]);
}

/** The batch span processor's options a variable sets. */
export interface BatchSpanOptions {
  readonly maxQueueSize?: number;
  readonly scheduledDelayMillis?: number;
  readonly exportTimeoutMillis?: number;
  readonly maxExportBatchSize?: number;
}

/**
 * The `OTEL_BSP_*` variables, as NodeSDK reads them (a value not over 0 is the default, with a
 * warning): the one reading of them, for register and `startToolCallTelemetry` (sdk-trace's
 * processor does not read them itself).
 */
export function batchSpanOptionsFromEnv(load: LoadPackage): BatchSpanOptions {
  return {
    maxQueueSize: positiveNumberFromEnv(load, 'OTEL_BSP_MAX_QUEUE_SIZE'),
    scheduledDelayMillis: positiveNumberFromEnv(load, 'OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: positiveNumberFromEnv(load, 'OTEL_BSP_EXPORT_TIMEOUT'),
    maxExportBatchSize: positiveNumberFromEnv(load, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  };
}

/**
 * `OTEL_PROPAGATORS`: the propagator to register, `undefined` for the default (W3C trace context
 * and baggage), `null` for none (NodeSDK's `getPropagatorFromEnv`).
 */
export function propagatorFromEnv(load: LoadPackage): TextMapPropagator | null | undefined {
  const core = envReaders(load);
  const names = core.getStringListFromEnv('OTEL_PROPAGATORS');
  if (names == null) return undefined;
  if (names.includes('none')) return null;
  const b3 = () => load<typeof import('@opentelemetry/propagator-b3')>('@opentelemetry/propagator-b3');
  const factories = new Map<string, () => TextMapPropagator>([
    ['tracecontext', () => new core.W3CTraceContextPropagator()],
    ['baggage', () => new core.W3CBaggagePropagator()],
    ['b3', () => new (b3().B3Propagator)()],
    ['b3multi', () => new (b3().B3Propagator)({ injectEncoding: b3().B3InjectEncoding.MULTI_HEADER })],
  ]);
  // the 3.x line has no Jaeger propagator (sdk-node 0.300 dropped the package): "unavailable", as there
  if (sdkLine(load) === 2) {
    factories.set('jaeger', () => {
      diag.warn(
        'The Jaeger propagator is deprecated and will be removed in a future release. Use the W3C TraceContext propagator ("tracecontext") instead.',
      );
      const { JaegerPropagator } = load<typeof import('@opentelemetry/propagator-jaeger')>(
        '@opentelemetry/propagator-jaeger',
      );
      return new JaegerPropagator();
    });
  }
  const unique = Array.from(new Set(names));
  const valid: TextMapPropagator[] = [];
  for (const name of unique) {
    const propagator = factories.get(name)?.();
    if (propagator === undefined)
      diag.warn(`Propagator "${name}" requested through environment variable is unavailable.`);
    else valid.push(propagator);
  }
  if (valid.length === 0) return null;
  if (unique.length === 1) return valid[0];
  return new core.CompositePropagator({ propagators: valid });
}

/** The default propagator: W3C trace context and baggage. */
export function defaultPropagator(load: LoadPackage): TextMapPropagator {
  const core = envReaders(load);
  return new core.CompositePropagator({
    propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
  });
}

/** `OTEL_TRACES_SAMPLER` / `_ARG` (NodeSDK's `createSamplerFromEnv`); `undefined`: the SDK's default. */
export function samplerFromEnv(load: LoadPackage): Sampler | undefined {
  const core = envReaders(load);
  const name = core.getStringFromEnv('OTEL_TRACES_SAMPLER');
  if (name === undefined) return undefined;
  const { AlwaysOnSampler, AlwaysOffSampler, ParentBasedSampler, TraceIdRatioBasedSampler } =
    load<typeof SdkTrace>('@opentelemetry/sdk-trace');
  const ratio = () => {
    const value = core.getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG');
    if (value == null) {
      diag.error('OTEL_TRACES_SAMPLER_ARG is blank, defaulting to 1.');
      return 1;
    }
    if (value < 0 || value > 1) {
      diag.error(`OTEL_TRACES_SAMPLER_ARG=${value} was given, but it is out of range ([0..1]), defaulting to 1.`);
      return 1;
    }
    return value;
  };
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      diag.error(`unknown OTEL_TRACES_SAMPLER value "${name}", using default`);
      return undefined;
  }
}

/** The `OTEL_SPAN_*` / `OTEL_ATTRIBUTE_*` limits (NodeSDK's `createSpanLimitsFromEnv`). */
export function spanLimitsFromEnv(load: LoadPackage): SpanLimits {
  const { getNumberFromEnv } = envReaders(load);
  return {
    attributeCountLimit:
      getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ?? getNumberFromEnv('OTEL_ATTRIBUTE_COUNT_LIMIT'),
    attributeValueLengthLimit:
      getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ??
      getNumberFromEnv('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT'),
    eventCountLimit: getNumberFromEnv('OTEL_SPAN_EVENT_COUNT_LIMIT'),
    linkCountLimit: getNumberFromEnv('OTEL_SPAN_LINK_COUNT_LIMIT'),
    attributePerEventCountLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT'),
    attributePerLinkCountLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT'),
  };
}

/** A number variable, `undefined` (with NodeSDK's warning) when it is not over 0. */
export function positiveNumberFromEnv(load: LoadPackage, name: string): number | undefined {
  const value = envReaders(load).getNumberFromEnv(name);
  if (value != null && value <= 0) {
    diag.warn(`${name} (${value}) is invalid, expected number greater than 0, using default.`);
    return undefined;
  }
  return value;
}
