/**
 * Runs the real Jaeger v2 (built by scripts/services.sh) for the tests, with the stack's own
 * observability/jaeger/config.yaml: that file reads its listen host and ports from variables, so the test
 * sets 127.0.0.1 and free ports instead of writing a copy. Reads traces back through Jaeger's query API.
 */
import { fileURLToPath } from 'node:url';
import { freePort } from './prometheus.js';
import { answers, type ServerProcess, startServerProcess } from './server-process.js';

export const jaegerConfigFile = fileURLToPath(new URL('../../observability/jaeger/config.yaml', import.meta.url));

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
  /** The services Jaeger has spans of. */
  services(): Promise<string[]>;
  /** Every trace of `service` of the last hour (up to `limit` traces). */
  traces(service: string, limit?: number): Promise<JaegerTrace[]>;
  log(): string;
  stop(): Promise<void>;
}

/** Starts `jaeger --config=<configFile>` (as docker-compose.otel.yml does) on 127.0.0.1 with free ports and waits (bounded) until it is healthy. */
export async function startJaeger(
  binary: string,
  { configFile = jaegerConfigFile, env = {} }: { configFile?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningJaeger> {
  const ports = {
    JAEGER_OTLP_HTTP_PORT: await freePort(),
    JAEGER_OTLP_GRPC_PORT: await freePort(),
    JAEGER_QUERY_HTTP_PORT: await freePort(),
    JAEGER_QUERY_GRPC_PORT: await freePort(),
    JAEGER_HEALTH_PORT: await freePort(),
    JAEGER_METRICS_PORT: await freePort(),
  };
  const queryUrl = `http://127.0.0.1:${ports.JAEGER_QUERY_HTTP_PORT}`;
  const otlpHttpUrl = `http://127.0.0.1:${ports.JAEGER_OTLP_HTTP_PORT}`;
  const server: ServerProcess = await startServerProcess('Jaeger', binary, [`--config=${configFile}`], {
    env: {
      JAEGER_LISTEN_HOST: '127.0.0.1',
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      ...env,
    },
    // healthy (every component started) and the query API answering
    ready: async () =>
      (await answers(`http://127.0.0.1:${ports.JAEGER_HEALTH_PORT}/status`)) &&
      (await answers(`${queryUrl}/api/services`)),
  });

  const api = async <T>(path: string, params: Record<string, string> = {}): Promise<T> => {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${queryUrl}${path}${query ? `?${query}` : ''}`, {
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Jaeger ${path} ${JSON.stringify(params)}: HTTP ${response.status} ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  };

  return {
    otlpHttpUrl,
    otlpGrpcAddress: `127.0.0.1:${ports.JAEGER_OTLP_GRPC_PORT}`,
    queryUrl,
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
    log: server.log,
    stop: server.stop,
  };
}
