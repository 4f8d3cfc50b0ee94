import { context, type DiagLogger, DiagLogLevel, diag, metrics, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOptionalPackage } from '../../src/internal/optional-package.js';
import { LeanNodeSdk } from '../../src/register/lean-node-sdk.js';
import { sdkLine } from './run-app.js';

/**
 * The lean start (src/register/lean-node-sdk.ts) is a fork of NodeSDK: from the same `OTEL_*`
 * variables it must register the same providers, configured the same way, on the SDK line installed
 * (2.x here, 3.x in the compatibility run). Each case starts NodeSDK, then the lean start, as register
 * starts it, and compares what each registered, field by field, and the diag messages each wrote.
 */

/** Each package as register loads it: the copies sdk-node depends on. */
const load = <Module>(name: string) => loadOptionalPackage<Module>(name, 'sdk-parity test', '@opentelemetry/sdk-node');
const resources = load<typeof import('@opentelemetry/resources')>('@opentelemetry/resources');
const { NodeSDK } = loadOptionalPackage<typeof import('@opentelemetry/sdk-node')>(
  '@opentelemetry/sdk-node',
  'sdk-parity test',
);

/** Where the OTLP exporters point: a port nothing listens on, so that a shutdown's export fails at once. */
const NOWHERE = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' };

/** The variables of each case (every other `OTEL_*` of the test's environment is unset). */
const MATRIX: Record<string, Record<string, string>> = {
  'the defaults': {},
  'otlp over grpc for every signal': { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
  'otlp over http/json for every signal': { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  'a protocol per signal': {
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
    OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'grpc',
  },
  'an unknown protocol': { OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon' },
  'endpoints per signal': {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/custom/traces',
    OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://127.0.0.1:9/custom/metrics',
  },
  'console exporters': {
    OTEL_TRACES_EXPORTER: 'console',
    OTEL_METRICS_EXPORTER: 'console',
    OTEL_LOGS_EXPORTER: 'console',
  },
  'console and otlp': { OTEL_TRACES_EXPORTER: 'console,otlp', OTEL_METRICS_EXPORTER: 'otlp,console' },
  'zipkin traces, prometheus metrics': {
    OTEL_TRACES_EXPORTER: 'zipkin',
    OTEL_METRICS_EXPORTER: 'prometheus',
    OTEL_EXPORTER_PROMETHEUS_PORT: '0',
  },
  'no exporters': { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' },
  'none with another trace exporter': { OTEL_TRACES_EXPORTER: 'none,console' },
  'an unknown exporter': { OTEL_TRACES_EXPORTER: 'carrier-pigeon', OTEL_METRICS_EXPORTER: 'carrier-pigeon' },
  always_off: { OTEL_TRACES_SAMPLER: 'always_off' },
  always_on: { OTEL_TRACES_SAMPLER: 'always_on' },
  parentbased_always_off: { OTEL_TRACES_SAMPLER: 'parentbased_always_off' },
  'traceidratio 0.25': { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' },
  'parentbased_traceidratio 0.5': { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' },
  'traceidratio out of range': { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' },
  'traceidratio with no argument': { OTEL_TRACES_SAMPLER: 'traceidratio' },
  'an unknown sampler': { OTEL_TRACES_SAMPLER: 'carrier-pigeon' },
  'propagators b3': { OTEL_PROPAGATORS: 'b3' },
  'propagators b3multi,tracecontext,baggage': { OTEL_PROPAGATORS: 'b3multi,tracecontext,baggage' },
  'propagators jaeger (gone from the 3.x line)': { OTEL_PROPAGATORS: 'jaeger' },
  'propagators none': { OTEL_PROPAGATORS: 'none' },
  'an unknown propagator': { OTEL_PROPAGATORS: 'carrier-pigeon,tracecontext' },
  'batch variables': {
    OTEL_BSP_MAX_QUEUE_SIZE: '100',
    OTEL_BSP_SCHEDULE_DELAY: '250',
    OTEL_BSP_EXPORT_TIMEOUT: '700',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
  },
  'batch variables out of range': { OTEL_BSP_MAX_QUEUE_SIZE: '0', OTEL_BSP_SCHEDULE_DELAY: '-5' },
  'span limits': {
    OTEL_ATTRIBUTE_COUNT_LIMIT: '10',
    OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '20',
    OTEL_SPAN_EVENT_COUNT_LIMIT: '30',
    OTEL_SPAN_LINK_COUNT_LIMIT: '40',
    OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT: '5',
    OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT: '6',
  },
  'span limits over the general ones': { OTEL_ATTRIBUTE_COUNT_LIMIT: '10', OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '11' },
  'log batch variables and log record limits': {
    OTEL_BLRP_MAX_QUEUE_SIZE: '100',
    OTEL_BLRP_SCHEDULE_DELAY: '250',
    OTEL_BLRP_EXPORT_TIMEOUT: '700',
    OTEL_BLRP_MAX_EXPORT_BATCH_SIZE: '50',
    OTEL_LOGRECORD_ATTRIBUTE_COUNT_LIMIT: '7',
    OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '99',
  },
  'resource attributes and service name': {
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,team=tools',
    OTEL_SERVICE_NAME: 'parity',
  },
  'resource detectors env,host': { OTEL_NODE_RESOURCE_DETECTORS: 'env,host', OTEL_RESOURCE_ATTRIBUTES: 'a=b' },
  'resource detectors none': { OTEL_NODE_RESOURCE_DETECTORS: 'none' },
  'resource detectors all': { OTEL_NODE_RESOURCE_DETECTORS: 'all' },
  'metric export interval': { OTEL_METRIC_EXPORT_INTERVAL: '1500', OTEL_METRIC_EXPORT_TIMEOUT: '500' },
  'metric export timeout over the interval': {
    OTEL_METRIC_EXPORT_INTERVAL: '1000',
    OTEL_METRIC_EXPORT_TIMEOUT: '5000',
  },
  "the SDK's own metrics on": { OTEL_NODE_EXPERIMENTAL_SDK_METRICS: 'true', OTEL_LOGS_EXPORTER: 'console' },
  'exporter headers, timeout and compression': {
    OTEL_EXPORTER_OTLP_HEADERS: 'x-team=tools',
    OTEL_EXPORTER_OTLP_TIMEOUT: '1234',
    OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
  },
  'the SDK disabled': { OTEL_SDK_DISABLED: 'true' },
};

/** The keys of the SDK's objects that hold no configuration: state, self-observability, loggers. */
const NOT_CONFIGURATION = new Set([
  '_diagLogger',
  '_diag',
  '_shutdownOnce',
  '_finishedSpans',
  '_promiseQueue',
  '_sendingPromises',
  '_droppedSpansCount',
  '_isExporting',
  '_timer',
  '_interval',
  '_meterProvider',
  '_callback',
  '_that',
  '_registeredTracers',
  '_tracers',
  '_rawAttributes',
  '_asyncAttributesPending',
  '_memoizedAttributes',
  '_schemaUrl',
  '_logger',
]);

/** A plain copy of what an SDK object holds: classes by name, functions left out, component numbers masked. */
function configurationOf(value: unknown, depth = 0, seen = new Set<object>()): unknown {
  if (typeof value === 'string') return value.replace(/(otel\.component\.name.*)?\/\d+$/, '/#');
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 12) return '[deep]';
  if (seen.has(value)) return '[seen]';
  seen.add(value);
  if (value instanceof Promise || value instanceof Map || value instanceof Set) return value.constructor.name;
  if (Array.isArray(value)) return value.map((item) => configurationOf(item, depth + 1, seen));
  const copy: Record<string, unknown> = { class: value.constructor?.name };
  for (const [key, field] of Object.entries(value)) {
    if (NOT_CONFIGURATION.has(key)) continue;
    const plain = configurationOf(field, depth + 1, seen);
    if (plain !== undefined) copy[key] = plain;
  }
  return copy;
}

interface Registered {
  readonly tracerProvider: unknown;
  readonly meterProvider: unknown;
  readonly propagator: unknown;
  readonly propagatorFields: string[];
  readonly loggerProvider: unknown;
  readonly resource?: Record<string, unknown>;
  readonly diag: string[];
}

/** The global tracer provider's delegate, or `undefined` when none was registered. */
function globalTracerProvider(): { _resource?: ResourceLike } | undefined {
  const provider = trace.getTracerProvider() as { getDelegate?: () => object };
  const delegate = provider.getDelegate?.() as { _resource?: ResourceLike } | undefined;
  return delegate?.constructor.name === 'NoopTracerProvider' ? undefined : delegate;
}

interface ResourceLike {
  readonly attributes: Record<string, unknown>;
  waitForAsyncAttributes?(): Promise<void>;
}

interface LogsApi {
  getLoggerProvider(): { getLogger(name: string): unknown; provider?: object };
  disable(): void;
}

/** The logs API NodeSDK registers with: the API's own on the 3.x line, `@opentelemetry/api-logs` on the 2.x line. */
const logsApi = () => load<{ logs: LogsApi }>(sdkLine === 3 ? '@opentelemetry/api' : '@opentelemetry/api-logs').logs;

/** The global logger provider's SDK: the lean start's is made when a logger is first asked for. */
function globalLoggerProvider(): object {
  const provider = logsApi().getLoggerProvider();
  provider.getLogger('sdk-parity');
  return provider.provider ?? provider;
}

/** Starts an SDK with the case's variables, and returns what it registered. */
async function registeredBy(
  env: Record<string, string>,
  make: () => { start(): void; shutdown(): Promise<void> },
): Promise<Registered> {
  const messages: string[] = [];
  const record = (level: string) => (message: string) => messages.push(`${level}: ${message}`);
  const logger: DiagLogger = {
    error: record('error'),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
    verbose: () => {},
  };
  diag.setLogger(logger, DiagLogLevel.DEBUG);
  const saved = { ...process.env };
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
  Object.assign(process.env, NOWHERE, env);
  try {
    const sdk = make();
    sdk.start();
    const tracerProvider = globalTracerProvider();
    const resource = tracerProvider?._resource;
    await resource?.waitForAsyncAttributes?.();
    const registered: Registered = {
      tracerProvider: configurationOf(tracerProvider),
      meterProvider: configurationOf(metrics.getMeterProvider()),
      propagator: configurationOf(
        (propagation as unknown as { _getGlobalPropagator(): object })._getGlobalPropagator(),
      ),
      propagatorFields: propagation.fields(),
      loggerProvider: configurationOf(globalLoggerProvider()),
      // service.instance.id: the one difference by design, tested on its own below
      resource: resource && { ...resource.attributes, 'service.instance.id': undefined },
      diag: messages.filter((message) => !message.includes('Accessing resource attributes')),
    };
    // with no collector, what an exporter still holds is dropped at once
    await Promise.race([sdk.shutdown().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000))]);
    return registered;
  } finally {
    process.env = saved;
    diag.disable();
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
    logsApi().disable();
  }
}

afterEach(() => {
  diag.disable();
});

describe(`the lean start is NodeSDK's, on the SDK ${sdkLine}.x line`, () => {
  for (const [name, env] of Object.entries(MATRIX)) {
    it(`${name}: the lean start registers what NodeSDK registers, with the same diag messages`, async () => {
      const node = await registeredBy(env, () => new NodeSDK({}));
      const lean = await registeredBy(env, () => new LeanNodeSdk({}, load));
      expect(lean).toEqual(node);
    });
  }

  // a difference by design: every process has its own instance, the app's own when it sets one
  it.each([
    ['none set', {}, undefined],
    ['in OTEL_RESOURCE_ATTRIBUTES', { OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=replica-7' }, 'replica-7'],
    ['none set, every detector on', { OTEL_NODE_RESOURCE_DETECTORS: 'all' }, undefined],
    ['none set, no detector', { OTEL_NODE_RESOURCE_DETECTORS: 'none' }, undefined],
  ])('intentional: the lean start gives each process a service.instance.id (%s)', async (_, env, expected) => {
    const instanceOf = async (make: () => { start(): void; shutdown(): Promise<void> }) => {
      const saved = { ...process.env };
      for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
      Object.assign(process.env, NOWHERE, env);
      const sdk = make();
      try {
        sdk.start();
        const resource = globalTracerProvider()?._resource;
        await resource?.waitForAsyncAttributes?.();
        return resource?.attributes['service.instance.id'];
      } finally {
        await Promise.race([sdk.shutdown().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000))]);
        process.env = saved;
        trace.disable();
        metrics.disable();
        propagation.disable();
        context.disable();
        logsApi().disable();
      }
    };
    const first = await instanceOf(() => new LeanNodeSdk({}, load));
    const second = await instanceOf(() => new LeanNodeSdk({}, load));
    if (expected === undefined) {
      expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(second).not.toBe(first);
    } else {
      expect([first, second]).toEqual([expected, expected]);
    }
    // the configured resource's (setup's resourceAttributes) wins over the variables and the detectors
    const configured = await instanceOf(
      () =>
        new LeanNodeSdk(
          { resource: resources.resourceFromAttributes({ 'service.instance.id': 'configured-1' }) },
          load,
        ),
    );
    expect(configured).toBe('configured-1');
  });

  // the one difference, by design: an app that writes no OpenTelemetry logs (most agents) never loads the logs SDK
  it("intentional: the lean start's logger provider makes the logs SDK when a logger is first asked for", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, NOWHERE);
    const sdk = new LeanNodeSdk({}, load);
    try {
      sdk.start();
      const provider = logsApi().getLoggerProvider();
      expect(provider.constructor.name).toBe('LazyLoggerProvider');
      expect(provider.provider).toBeUndefined();
      provider.getLogger('sdk-parity');
      expect(provider.provider?.constructor.name).toBe('LoggerProvider');
    } finally {
      await Promise.race([sdk.shutdown().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000))]);
      process.env = saved;
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
      logsApi().disable();
    }
  });
});
