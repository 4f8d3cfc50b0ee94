/**
 * Runs the real Jaeger v2 (built by scripts/services.sh) for the tests, with the stack's own configs:
 * observability/jaeger/config-memory.yaml (traces in memory: the default, where speed matters) or
 * observability/jaeger/config.yaml (what docker-compose.otel.yml runs: Badger on disk, span metrics for the
 * Monitor tab). Both read their listen host, ports and directories from variables, so the test sets
 * 127.0.0.1, free ports and a temporary directory instead of writing a copy. Reads traces back through
 * Jaeger's query API, and the Monitor tab's metrics through its metrics API.
 */
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { answers, type ServerProcess, startServerProcess } from './server-process.js';

/** Traces in memory: a restart empties it. The tests' default. */
export const jaegerConfigFile = fileURLToPath(
  new URL('../../observability/jaeger/config-memory.yaml', import.meta.url),
);
/** The compose stack's: traces on disk in Badger, span metrics to Prometheus. */
export const jaegerBadgerConfigFile = fileURLToPath(new URL('../../observability/jaeger/config.yaml', import.meta.url));

/** The ports a Jaeger listens on (the variables of its config): a restart passes the same ones back. */
export interface JaegerPorts {
  readonly JAEGER_OTLP_HTTP_PORT: number;
  readonly JAEGER_OTLP_GRPC_PORT: number;
  readonly JAEGER_QUERY_HTTP_PORT: number;
  readonly JAEGER_QUERY_GRPC_PORT: number;
  readonly JAEGER_HEALTH_PORT: number;
  readonly JAEGER_METRICS_PORT: number;
  /** config.yaml's span-metrics endpoint (Prometheus scrapes `/metrics` there). */
  readonly JAEGER_SPANMETRICS_PORT: number;
}

/** One series of Jaeger's metrics API (`/api/metrics/{calls,errors,latencies}`): the Monitor tab's data. */
export interface JaegerMetricFamily {
  readonly name: string;
  readonly metrics: ReadonlyArray<{
    readonly labels: ReadonlyArray<{ readonly name: string; readonly value: string }>;
    readonly metricPoints: ReadonlyArray<{
      readonly gaugeValue?: { readonly doubleValue?: number };
      readonly timestamp: string;
    }>;
  }>;
}

/** A tag (span attribute, or a field of a log) in Jaeger's JSON. */
export interface JaegerKeyValue {
  readonly key: string;
  readonly type: string;
  readonly value: unknown;
}
export interface JaegerSpan {
  readonly traceID: string;
  readonly spanID: string;
  readonly operationName: string;
  readonly references: ReadonlyArray<{ readonly refType: string; readonly traceID: string; readonly spanID: string }>;
  readonly tags: readonly JaegerKeyValue[];
  /** Span events: an exception the listener recorded is a log with `event=exception`. */
  readonly logs: ReadonlyArray<{ readonly timestamp: number; readonly fields: readonly JaegerKeyValue[] }>;
  readonly processID: string;
}
export interface JaegerTrace {
  readonly traceID: string;
  readonly spans: readonly JaegerSpan[];
  readonly processes: Readonly<Record<string, { readonly serviceName: string }>>;
}

/** The value of tag `key`, or `undefined`. */
export function tag(tags: readonly JaegerKeyValue[], key: string): unknown {
  return tags.find((t) => t.key === key)?.value;
}

/** The span's parent in the same trace (its CHILD_OF reference), or `undefined` for a root. */
export function parentOf(span: JaegerSpan): string | undefined {
  return span.references.find((ref) => ref.refType === 'CHILD_OF')?.spanID;
}

export interface RunningJaeger {
  /** `http://127.0.0.1:<port>`: OTEL_EXPORTER_OTLP_ENDPOINT for an app (traces go to `/v1/traces`). */
  readonly otlpHttpUrl: string;
  /** `127.0.0.1:<port>`: the OTLP/gRPC receiver. */
  readonly otlpGrpcAddress: string;
  /** `http://127.0.0.1:<port>`: the query API and UI. */
  readonly queryUrl: string;
  /** The ports it listens on: `startJaeger(binary, { ports })` starts it again on the same ones. */
  readonly ports: JaegerPorts;
  /** `127.0.0.1:<port>`: config.yaml's span-metrics endpoint, a Prometheus scrape target. */
  readonly spanMetricsTarget: string;
  /** A call of the metrics API behind the Monitor tab, e.g. `metrics('calls', { service, spanKind: 'internal' })`. */
  metrics(kind: 'calls' | 'errors' | 'latencies', params: Record<string, string>): Promise<JaegerMetricFamily>;
  /** The services Jaeger has spans of. */
  services(): Promise<string[]>;
  /** Every trace of `service` of the last hour (up to `limit` traces). */
  traces(service: string, limit?: number): Promise<JaegerTrace[]>;
  log(): string;
  stop(): Promise<void>;
}

/** Free ports for a Jaeger, chosen before it starts (so that a Prometheus can be told its span-metrics target first). */
export async function freeJaegerPorts(): Promise<JaegerPorts> {
  // distinct: the OS may hand a port it just gave back out again
  const ports = new Set<number>();
  while (ports.size < 7) ports.add(await freePort());
  const [otlpHttp, otlpGrpc, queryHttp, queryGrpc, health, metrics, spanMetrics] = [...ports] as number[];
  return {
    JAEGER_OTLP_HTTP_PORT: otlpHttp!,
    JAEGER_OTLP_GRPC_PORT: otlpGrpc!,
    JAEGER_QUERY_HTTP_PORT: queryHttp!,
    JAEGER_QUERY_GRPC_PORT: queryGrpc!,
    JAEGER_HEALTH_PORT: health!,
    JAEGER_METRICS_PORT: metrics!,
    JAEGER_SPANMETRICS_PORT: spanMetrics!,
  };
}

/**
 * Starts `jaeger --config=<configFile>` (as docker-compose.otel.yml does) on 127.0.0.1 with free ports (or
 * `ports`, to start it again where it was) and waits (bounded) until it is healthy. `badgerDir` runs the
 * compose stack's config.yaml with its Badger storage in that directory (`prometheusUrl`: where its Monitor
 * tab reads the span metrics).
 */
export async function startJaeger(
  binary: string,
  {
    configFile,
    env = {},
    ports: given,
    badgerDir,
    prometheusUrl = 'http://127.0.0.1:1',
  }: {
    configFile?: string;
    env?: NodeJS.ProcessEnv;
    ports?: JaegerPorts;
    badgerDir?: string;
    prometheusUrl?: string;
  } = {},
): Promise<RunningJaeger> {
  const config = configFile ?? (badgerDir ? jaegerBadgerConfigFile : jaegerConfigFile);
  const start = (ports: JaegerPorts) =>
    startServerProcess('Jaeger', binary, [`--config=${config}`], {
      env: {
        JAEGER_LISTEN_HOST: '127.0.0.1',
        ...(badgerDir ? { JAEGER_BADGER_DIR: badgerDir } : {}),
        JAEGER_PROMETHEUS_URL: prometheusUrl,
        // Jaeger traces itself to localhost:4317 by default: not in the tests
        OTEL_TRACES_EXPORTER: 'none',
        ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
        ...env,
      },
      // healthy (every component started) and the query API answering
      ready: async () =>
        (await answers(`http://127.0.0.1:${ports.JAEGER_HEALTH_PORT}/status`)) &&
        (await answers(`http://127.0.0.1:${ports.JAEGER_QUERY_HTTP_PORT}/api/services`)),
    });
  let ports = given ?? (await freeJaegerPorts());
  let server: ServerProcess;
  for (let attempt = 1; ; attempt++) {
    try {
      server = await start(ports);
      break;
    } catch (error) {
      // ports chosen here and taken by another process before Jaeger bound them: chosen again, at most
      // three times (ports given are where a restarted Jaeger must be, and are not changed)
      const taken = /address already in use/.test((error as Error).message);
      if (given !== undefined || !taken || attempt === 3) throw error;
      ports = await freeJaegerPorts();
    }
  }
  const queryUrl = `http://127.0.0.1:${ports.JAEGER_QUERY_HTTP_PORT}`;
  const otlpHttpUrl = `http://127.0.0.1:${ports.JAEGER_OTLP_HTTP_PORT}`;
  return {
    otlpHttpUrl,
    otlpGrpcAddress: `127.0.0.1:${ports.JAEGER_OTLP_GRPC_PORT}`,
    queryUrl,
    ports,
    spanMetricsTarget: `127.0.0.1:${ports.JAEGER_SPANMETRICS_PORT}`,
    ...jaegerClient(queryUrl),
    log: server.log,
    stop: server.stop,
  };
}

/** The query and metrics APIs of a Jaeger whose query service is at `queryUrl` (one the test started, or the stack's). */
export function jaegerClient(queryUrl: string): Pick<RunningJaeger, 'metrics' | 'services' | 'traces'> {
  const get = async (path: string, params: Record<string, string>): Promise<unknown> => {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${queryUrl}${path}${query ? `?${query}` : ''}`, {
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Jaeger ${path} ${JSON.stringify(params)}: HTTP ${response.status} ${text}`);
    return JSON.parse(text);
  };
  const api = async <T>(path: string, params: Record<string, string> = {}): Promise<T> =>
    ((await get(path, params)) as { data: T }).data;

  return {
    metrics: async (kind, params) => (await get(`/api/metrics/${kind}`, params)) as JaegerMetricFamily,
    services: async () => (await api<string[] | null>('/api/services')) ?? [],
    traces: async (service, limit = 10_000) => {
      const nowMicros = Date.now() * 1000;
      return (
        (await api<JaegerTrace[] | null>('/api/traces', {
          service,
          limit: String(limit),
          start: String(nowMicros - 3_600_000_000),
          end: String(nowMicros + 60_000_000),
        })) ?? []
      );
    },
  };
}
