/*
 * FORK of upstream code, kept in step by test/register/sdk-parity.test.ts.
 * Mirrors `NodeSDK` (constructor, `start()`, `shutdown()`) and its resource detector choice of
 * `@opentelemetry/sdk-node` 0.223.0 (SDK 2.12 line: `build/src/sdk.js`, `build/src/utils.js`) and
 * 0.301.0 (SDK 3.1 line: `dist/sdk.mjs`, `dist/utils.mjs`) where the two differ (`sdkLine`).
 */
import { type ContextManager, context, DiagConsoleLogger, diag, metrics, propagation, trace } from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type * as Resources from '@opentelemetry/resources';
import type { Resource } from '@opentelemetry/resources';
import type * as SdkMetrics from '@opentelemetry/sdk-metrics';
import type { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME } from '../otel/stable-semconv.js';
import { LazyLoggerProvider, logsExportersFromEnv } from './lazy-logger-provider.js';
import {
  defaultPropagator,
  envReaders,
  type LoadPackage,
  metricReadersFromEnv,
  propagatorFromEnv,
  samplerFromEnv,
  sdkLine,
  spanLimitsFromEnv,
  spanProcessorsFromEnv,
} from './sdk-from-env.js';

/** The part of NodeSDK's configuration that register and `startToolCallTelemetry` give it. */
export interface LeanNodeSdkConfiguration {
  readonly serviceName?: string;
  readonly resource?: Resource;
  readonly contextManager?: ContextManager;
  readonly spanProcessors?: SpanProcessor[];
  readonly metricReaders?: MetricReader[];
  /** Left out: from `OTEL_LOGS_EXPORTER`, as NodeSDK. `[]`: no logger provider (NodeSDK registers one that drops every record). */
  readonly logRecordProcessors?: [];
  /**
   * Made by `start()` once it has loaded the SDK's packages, not before: making an
   * `InstrumentationBase`, even one made disabled, installs require-in-the-middle's hook on every
   * `require()` (its `RequireInTheMiddleSingleton`), and each of the SDK's 300 CommonJS files then
   * went through it (resolved again, its package.json read).
   */
  readonly instrumentations?: () => Instrumentation[];
}

/**
 * `@opentelemetry/sdk-node`'s `NodeSDK` for the configuration above, step by step as its
 * constructor, `start()` and `shutdown()` (sdk-node 0.223's `sdk.ts`, and 0.301's where the 3.x
 * line differs: `sdkLine`): the same variables, the
 * same providers registered in the same order, the same diag messages. What differs is what is
 * loaded: each SDK package when a variable or the configuration selects what is in it
 * (`sdk-from-env.ts`), and the logs SDK only when a logger is first asked for
 * (`lazy-logger-provider.ts`). Importing NodeSDK loads all of them, every exporter of every
 * protocol included: an app that starts per request or per command pays for them at each start.
 */
export class LeanNodeSdk {
  private readonly disabled: boolean;
  private resource: Resource;
  private readonly resourceDetectors: Resources.ResourceDetector[];
  private readonly metricReaders: MetricReader[];
  private readonly instrumentations: () => Instrumentation[];
  private tracerProvider?: SdkTrace.TracerProvider;
  private meterProvider?: MeterProvider;
  private loggerProvider?: LazyLoggerProvider;

  constructor(
    private readonly configuration: LeanNodeSdkConfiguration,
    private readonly load: LoadPackage,
  ) {
    const core = envReaders(load);
    this.disabled = core.getBooleanFromEnv('OTEL_SDK_DISABLED');
    const logLevel = core.getStringFromEnv('OTEL_LOG_LEVEL');
    if (logLevel != null) diag.setLogger(new DiagConsoleLogger(), { logLevel: core.diagLogLevelFromString(logLevel) });
    const resources = load<typeof Resources>('@opentelemetry/resources');
    this.resource = configuration.resource ?? resources.defaultResource();
    this.resourceDetectors = core.getStringFromEnv('OTEL_NODE_RESOURCE_DETECTORS')
      ? resourceDetectorsFromEnv(load)
      : defaultResourceDetectors(load);
    // built here, as NodeSDK's constructor does (a Prometheus exporter starts serving now)
    this.metricReaders = configuration.metricReaders ?? metricReadersFromEnv(load);
    this.instrumentations = configuration.instrumentations ?? (() => []);
  }

  /** Builds the providers and registers them with the API. */
  start(): void {
    if (this.disabled) return;
    const { load, configuration } = this;
    const core = envReaders(load);
    const contextManager =
      configuration.contextManager ??
      new (load<typeof ContextAsyncHooks>('@opentelemetry/context-async-hooks').AsyncLocalStorageContextManager)();
    contextManager.enable();
    context.setGlobalContextManager(contextManager);
    const propagator = propagatorFromEnv(load);
    if (propagator !== null) propagation.setGlobalPropagator(propagator ?? defaultPropagator(load));

    const resources = load<typeof Resources>('@opentelemetry/resources');
    this.resource = this.resource.merge(resources.detectResources({ detectors: this.resourceDetectors }));
    if (configuration.serviceName !== undefined) {
      this.resource = this.resource.merge(
        resources.resourceFromAttributes({ [ATTR_SERVICE_NAME]: configuration.serviceName }),
      );
    }
    // Intentional, unlike NodeSDK: every process its own service.instance.id
    this.resource = this.resource.merge(
      resources.resourceFromAttributes({ [ATTR_SERVICE_INSTANCE_ID]: this.serviceInstanceId(resources) }),
    );

    // while the SDK's own metrics are unstable, they are opt-in (as in NodeSDK)
    const sdkMetricsEnabled = core.getBooleanFromEnv('OTEL_NODE_EXPERIMENTAL_SDK_METRICS');
    if (this.metricReaders.length > 0) {
      const { MeterProvider } = load<typeof SdkMetrics>('@opentelemetry/sdk-metrics');
      this.meterProvider = new MeterProvider({
        resource: this.resource,
        views: [],
        readers: this.metricReaders,
        sdkMetricsEnabled,
      } as ConstructorParameters<typeof MeterProvider>[0]);
      metrics.setGlobalMeterProvider(this.meterProvider);
    }
    const selfObsMeterProvider = sdkMetricsEnabled ? this.meterProvider : undefined;

    const spanProcessors = configuration.spanProcessors ?? spanProcessorsFromEnv(load, selfObsMeterProvider);
    if (spanProcessors.length > 0) {
      const { TracerProvider } = load<typeof SdkTrace>('@opentelemetry/sdk-trace');
      this.tracerProvider = new TracerProvider({
        sampler: samplerFromEnv(load),
        spanLimits: spanLimitsFromEnv(load),
        resource: this.resource,
        meterProvider: selfObsMeterProvider,
        spanProcessors,
      } as ConstructorParameters<typeof TracerProvider>[0]);
      trace.setGlobalTracerProvider(this.tracerProvider);
    }

    // After the providers, not first as in NodeSDK: an instrumentation hooks every require() from the
    // moment it is made (require-in-the-middle resolves each one again), and the SDK packages loaded
    // above took 0.2 s more through it. Before the logger provider, as in NodeSDK: an instrumentation's
    // logger is the logs API's proxy, and asks the logs SDK for nothing yet.
    const instrumentations = this.instrumentations();
    if (instrumentations.length > 0) {
      const { registerInstrumentations } = load<typeof import('@opentelemetry/instrumentation')>(
        '@opentelemetry/instrumentation',
      );
      // enables each (those made with `enabled: false`) with the providers just registered
      registerInstrumentations({ instrumentations });
    }

    const exporters = configuration.logRecordProcessors === undefined ? logsExportersFromEnv(load) : [];
    if (exporters.length > 0) {
      this.loggerProvider = new LazyLoggerProvider(load, exporters, this.resource, selfObsMeterProvider);
      this.loggerProvider.register();
    }
  }

  /**
   * The app's `service.instance.id` (the configured resource's, else `OTEL_RESOURCE_ATTRIBUTES`'), else a
   * random UUID, as the resource conventions recommend. NodeSDK sets none on the 2.x line, and on the 3.x
   * line lets its detector's random one override the app's configured one: replicas of a service that set
   * none then write one metric series (a push backend keys series on the instance), and their counts
   * overwrite each other. Read from those two sources, never from the detected resource, whose attributes
   * may still be pending (host.id).
   */
  private serviceInstanceId(resources: typeof Resources): string {
    const own =
      this.configuration.resource?.attributes[ATTR_SERVICE_INSTANCE_ID] ??
      (resources.envDetector.detect() as { attributes?: Record<string, unknown> }).attributes?.[
        ATTR_SERVICE_INSTANCE_ID
      ];
    return typeof own === 'string' && own !== '' ? own : globalThis.crypto.randomUUID();
  }

  /** Exports what the providers hold, and goes on (NodeSDK has none: its providers' `forceFlush`). */
  forceFlush(): Promise<void> {
    const flushing = [
      this.tracerProvider?.forceFlush(),
      this.loggerProvider?.forceFlush(),
      this.meterProvider?.forceFlush(),
    ];
    return Promise.all(flushing).then(() => undefined);
  }

  /** Flushes and stops the providers (NodeSDK's `shutdown`). */
  shutdown(): Promise<void> {
    const stopping = [this.tracerProvider?.shutdown(), this.loggerProvider?.shutdown(), this.meterProvider?.shutdown()];
    return Promise.all(stopping).then(() => undefined);
  }
}

/** NodeSDK's detectors when `OTEL_NODE_RESOURCE_DETECTORS` is unset: the 3.x line adds the service instance id and the OS. */
function defaultResourceDetectors(load: LoadPackage): Resources.ResourceDetector[] {
  const resources = load<typeof Resources>('@opentelemetry/resources');
  return sdkLine(load) === 3
    ? [
        resources.serviceInstanceIdDetector,
        resources.processDetector,
        resources.hostDetector,
        resources.osDetector,
        resources.envDetector,
      ]
    : [resources.envDetector, resources.processDetector, resources.hostDetector];
}

/** `OTEL_NODE_RESOURCE_DETECTORS` (NodeSDK's `getResourceDetectorsFromEnv`). */
function resourceDetectorsFromEnv(load: LoadPackage): Resources.ResourceDetector[] {
  const resources = load<typeof Resources>('@opentelemetry/resources');
  const detectors = new Map<string, Resources.ResourceDetector>([
    ['host', resources.hostDetector],
    ['os', resources.osDetector],
    ['serviceinstance', resources.serviceInstanceIdDetector],
    ['process', resources.processDetector],
    ['env', resources.envDetector],
  ]);
  const names = envReaders(load).getStringListFromEnv('OTEL_NODE_RESOURCE_DETECTORS') ?? ['all'];
  if (names.includes('all')) return [...detectors.values()];
  if (names.includes('none')) return [];
  return names.flatMap((name) => {
    const detector = detectors.get(name);
    if (!detector) {
      diag.warn(
        `Invalid resource detector "${name}" specified in the environment variable OTEL_NODE_RESOURCE_DETECTORS`,
      );
    }
    return detector ?? [];
  });
}
