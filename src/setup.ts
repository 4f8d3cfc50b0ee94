import { type Attributes, context, metrics as metricsApi, propagation, trace } from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as MetricsOtlpHttp from '@opentelemetry/exporter-metrics-otlp-http';
import type * as Prometheus from '@opentelemetry/exporter-prometheus';
import type * as TraceOtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkMetrics from '@opentelemetry/sdk-metrics';
// sdk-trace, not sdk-trace-base: the latter is gone from SDK 3.x (sdk-trace exists from 2.9 on)
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { boundedShutdown } from './internal/bounded-shutdown.js';
import { loadOptionalPackage } from './internal/optional-package.js';
import { SHUTDOWN_TIMEOUT_VARIABLE, shutdownTimeoutMs } from './internal/shutdown-timeout.js';
import { endOpenSessions } from './otel/open-sessions.js';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from './otel/stable-semconv.js';
import { LeanNodeSdk } from './register/lean-node-sdk.js';
import { batchSpanOptionsFromEnv } from './register/sdk-from-env.js';

/** setup's default host of the Prometheus endpoint (exporter-prometheus 0.223 took every interface, 0.301 localhost). */
const EVERY_IPV4_INTERFACE = '0.0.0.0';
/** The Prometheus exporter's own default port. */
const DEFAULT_PROMETHEUS_PORT = 9464;

export interface ToolCallTelemetryOptions {
  /** `service.name` of the resource: the service Jaeger and Prometheus show. */
  readonly serviceName: string;
  /** `service.version` of the resource. @default none */
  readonly serviceVersion?: string;
  /** More resource attributes (the `OTEL_RESOURCE_ATTRIBUTES` variable is read too). @default {} */
  readonly resourceAttributes?: Attributes;
  /**
   * Where spans go: `'otlp'` sends OTLP/HTTP to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (default http://localhost:4318), through a batch processor;
   * `'none'` records no spans; or your own exporter (batched too).
   * @default 'otlp'
   */
  readonly traces?: 'otlp' | 'none' | SpanExporter;
  /** More span processors, after the exporter's. @default [] */
  readonly spanProcessors?: readonly SpanProcessor[];
  /**
   * Where metrics go: a Prometheus endpoint served by this process (scraped at `/metrics`), OTLP/HTTP
   * pushed every `OTEL_METRIC_EXPORT_INTERVAL` ms, or nowhere.
   * @default 'prometheus'
   */
  readonly metrics?: 'prometheus' | 'otlp' | 'none';
  /** The Prometheus endpoint's port. @default OTEL_EXPORTER_PROMETHEUS_PORT, else 9464 */
  readonly prometheusPort?: number;
  /**
   * The Prometheus endpoint's host. On both SDK lines every IPv4 interface by default, so that a Prometheus
   * in a container (the compose stack's, through host.docker.internal) reaches it; exporter-prometheus 0.301
   * alone would listen on localhost only. `'::'` for IPv6 too, `'127.0.0.1'` to keep it to this machine.
   * @default OTEL_EXPORTER_PROMETHEUS_HOST, else '0.0.0.0'
   */
  readonly prometheusHost?: string;
}

export interface ToolCallTelemetry {
  /** The Prometheus endpoint, when `metrics` is `'prometheus'`. */
  readonly metricsUrl?: string;
  /**
   * Flushes and stops everything, waiting `OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS` at most (1000 ms by
   * default); resolves even if an exporter is down, with one line on stderr when the telemetry not yet
   * exported could not be delivered (then what the exporters still hold no longer keeps the process alive).
   */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry Node SDK for tool-call telemetry in one call: OTLP/HTTP traces, a
 * Prometheus (or OTLP) metrics endpoint, an AsyncLocalStorage context manager so tool spans nest
 * under the agent's, and a `service.name`. It registers the global providers that
 * `OpenTelemetryToolCallListener` uses by default.
 *
 * The SDK packages are loaded when it is called, and only those its options use (the Prometheus
 * exporter only for `metrics: 'prometheus'`, ...), not `@opentelemetry/sdk-node` (which loads every
 * exporter of every protocol): a missing one throws an Error that names it and the command that
 * installs it.
 *
 * @example
 * const telemetry = startToolCallTelemetry({ serviceName: 'my-agent' });
 * process.on('SIGTERM', () => telemetry.shutdown());
 */
export function startToolCallTelemetry(options: ToolCallTelemetryOptions): ToolCallTelemetry {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('startToolCallTelemetry: `options` must be an object with a `serviceName`');
  }
  const { serviceName, traces = 'otlp', metrics = 'prometheus' } = options;
  if (typeof serviceName !== 'string' || serviceName.length === 0) {
    throw new TypeError('startToolCallTelemetry: `serviceName` must be a non-empty string');
  }
  if (traces !== 'otlp' && traces !== 'none' && typeof (traces as SpanExporter)?.export !== 'function') {
    throw new TypeError("startToolCallTelemetry: `traces` must be 'otlp', 'none' or a SpanExporter");
  }
  if (metrics !== 'prometheus' && metrics !== 'otlp' && metrics !== 'none') {
    throw new TypeError("startToolCallTelemetry: `metrics` must be 'prometheus', 'otlp' or 'none'");
  }
  const port = options.prometheusPort ?? envPort() ?? DEFAULT_PROMETHEUS_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError('startToolCallTelemetry: `prometheusPort` must be an integer from 0 to 65535');
  }

  if (options.spanProcessors !== undefined && !Array.isArray(options.spanProcessors)) {
    throw new TypeError('startToolCallTelemetry: `spanProcessors` must be an array of SpanProcessors');
  }
  const { resourceAttributes } = options;
  if (resourceAttributes !== undefined && (resourceAttributes === null || typeof resourceAttributes !== 'object')) {
    throw new TypeError('startToolCallTelemetry: `resourceAttributes` must be an object');
  }
  for (const name of ['serviceVersion', 'prometheusHost'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'string') {
      throw new TypeError(`startToolCallTelemetry: \`${name}\` must be a string`);
    }
  }

  const load = <Module>(name: string, neededFor: string) =>
    loadOptionalPackage<Module>(name, `startToolCallTelemetry (${neededFor})`);
  const { resourceFromAttributes } = load<typeof Resources>('@opentelemetry/resources', 'the resource');
  const { AsyncLocalStorageContextManager } = load<typeof ContextAsyncHooks>(
    '@opentelemetry/context-async-hooks',
    'the context manager',
  );

  // the packages the parts below depend on (core, sdk-metrics's MeterProvider), as they resolve them
  const via: Record<string, string> = {
    '@opentelemetry/core': '@opentelemetry/resources',
    '@opentelemetry/sdk-metrics':
      metrics === 'prometheus' ? '@opentelemetry/exporter-prometheus' : '@opentelemetry/exporter-metrics-otlp-http',
  };
  const loadSdkPart = <Module>(name: string) =>
    loadOptionalPackage<Module>(name, 'startToolCallTelemetry (the OpenTelemetry SDK)', via[name]);

  const spanProcessors: SpanProcessor[] = [];
  if (traces !== 'none') {
    const { BatchSpanProcessor } = load<typeof SdkTrace>('@opentelemetry/sdk-trace', 'traces');
    const exporter =
      traces === 'otlp'
        ? new (load<typeof TraceOtlpHttp>(
            '@opentelemetry/exporter-trace-otlp-http',
            "traces: 'otlp'",
          ).OTLPTraceExporter)()
        : traces;
    spanProcessors.push(new BatchSpanProcessor({ exporter, ...batchSpanOptionsFromEnv(loadSdkPart) }));
  }
  spanProcessors.push(...(options.spanProcessors ?? []));

  const metricReaders: SdkMetrics.MetricReader[] = [];
  const host = options.prometheusHost ?? (process.env.OTEL_EXPORTER_PROMETHEUS_HOST || EVERY_IPV4_INTERFACE);
  if (metrics === 'prometheus') {
    const { PrometheusExporter } = load<typeof Prometheus>(
      '@opentelemetry/exporter-prometheus',
      "metrics: 'prometheus'",
    );
    // the exporter says a failure to listen only through diag (silent by default): metrics the user
    // then scrapes at that port are another process's
    metricReaders.push(
      new PrometheusExporter({ port, host }, (error) => {
        if (error) console.warn(prometheusNotServed(error, host, port));
      }),
    );
  }
  if (metrics === 'otlp') {
    const { PeriodicExportingMetricReader } = load<typeof SdkMetrics>('@opentelemetry/sdk-metrics', "metrics: 'otlp'");
    const { OTLPMetricExporter } = load<typeof MetricsOtlpHttp>(
      '@opentelemetry/exporter-metrics-otlp-http',
      "metrics: 'otlp'",
    );
    metricReaders.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
  }

  const sdk = new LeanNodeSdk(
    {
      serviceName,
      resource: resourceFromAttributes({
        ...options.resourceAttributes,
        [ATTR_SERVICE_NAME]: serviceName,
        ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
      }),
      contextManager: new AsyncLocalStorageContextManager(),
      spanProcessors,
      metricReaders,
      logRecordProcessors: [],
    },
    loadSdkPart,
  );
  sdk.start();

  const stop = async () => {
    endOpenSessions(); // sessions still open (a stdio MCP server whose client left) end into the last export
    const timeoutMs = shutdownTimeoutMs();
    const ended = await boundedShutdown(() => sdk.shutdown(), timeoutMs);
    // with no collector, the OTLP exporters retry for 10 s, silently: one line instead
    if (ended.outcome === 'timed-out') {
      console.warn(
        `otel-tool-calls: telemetry not delivered: the exporters had not finished ${timeoutMs} ms after ` +
          `shutdown() (is the collector running?); ${SHUTDOWN_TIMEOUT_VARIABLE} sets how long shutdown() waits`,
      );
    } else if (ended.outcome === 'failed') {
      console.warn(`otel-tool-calls: telemetry not delivered at shutdown(): ${firstLine(ended.error)}`);
    }
    // the providers are dead after shutdown: unregister them, so that a later start can register its own
    trace.disable();
    metricsApi.disable();
    context.disable();
    propagation.disable();
  };
  let stopping: Promise<void> | undefined;
  return {
    metricsUrl: metrics === 'prometheus' ? `http://${urlHost(host)}:${port}/metrics` : undefined,
    shutdown: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}

/** Where this machine reaches a server listening on `host`: localhost for the wildcards, IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === EVERY_IPV4_INTERFACE || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** The one line for a Prometheus endpoint that could not listen (a port in use, a host not of this machine). */
function prometheusNotServed(error: Error, host: string, port: number): string {
  const where = `${urlHost(host)}:${port}`;
  if ((error as { code?: unknown }).code === 'EADDRINUSE') {
    return (
      `otel-tool-calls: no Prometheus metrics from this process: port ${port} is in use (http://${where}/metrics ` +
      "is another process's); set prometheusPort or OTEL_EXPORTER_PROMETHEUS_PORT"
    );
  }
  return `otel-tool-calls: no Prometheus metrics from this process: cannot listen on ${where}: ${firstLine(error)}`;
}

/** An error's message as one line of at most 300 characters: it comes from an exporter or the OS. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n', 1)[0] ?? '').slice(0, 300);
}

function envPort(): number | undefined {
  const raw = process.env.OTEL_EXPORTER_PROMETHEUS_PORT;
  return raw ? Number(raw) : undefined;
}
