import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { otlpAttributes, type ReceivedRequest, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { fixtures, root } from './built-package.js';

export { buildPackageIfMissing, builtPackageExists, fixtures, root } from './built-package.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The app folder of the zero-code suite on the SDK 3.x line (compat/sdk3-app.ts); unset on the 2.x line. */
    sdk3App?: string;
  }
}

/**
 * The OpenTelemetry JS SDK line the apps run on: 2 in the root run (Node 20, the root node_modules),
 * 3 in the compatibility run (scripts/compat.sh: Node 24, compat/node_modules), whose global setup
 * (compat/sdk3-app.ts) made the app folder.
 */
export const sdkLine: 2 | 3 = inject('sdk3App') === undefined ? 2 : 3;

/** Where the fixture apps run: the repo's fixtures on the 2.x line, the app folder's copy of them on the 3.x line. */
export function appFolder(): string {
  return inject('sdk3App') ?? root;
}

/** A fixture app's file, where it runs. */
export function fixtureFile(file: string): string {
  const app = inject('sdk3App');
  return app === undefined ? `${fixtures}${file}` : join(app, 'test', 'register', 'fixtures', file);
}

export interface ExportedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly attributes: Record<string, unknown>;
  readonly status: { code?: number; message?: string };
  readonly serviceName: unknown;
  /** The attributes of the resource it was exported with. */
  readonly resource: Record<string, unknown>;
}

export interface ExportedMetric {
  readonly name: string;
  /** Histogram: the sum of the data points' counts; sum: the sum of their values. */
  readonly total: number;
  readonly points: ReadonlyArray<Record<string, unknown>>;
}

export interface AppRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly spans: ExportedSpan[];
  readonly metrics: ExportedMetric[];
  /** The bodies of the log records exported. */
  readonly logs: string[];
  /** The log records exported that are events (an `eventName`), in the order exported. */
  readonly events: ExportedEvent[];
  /** Every request the receiver got: path, content type and body. */
  readonly requests: readonly ReceivedRequest[];
}

/**
 * Runs a fixture app (test/register/fixtures) in a child process, `node --import|--require
 * otel-tool-calls/register <fixture>`, with the variables a user sets (`OTEL_SERVICE_NAME`, and
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at an OTLP receiver on 127.0.0.1) and no other `OTEL_*`
 * of the test's environment, and returns what it printed, how it ended, and what the receiver got.
 * `env` adds variables; one set to `undefined` is left out.
 */
export async function runUnderRegister(
  fixture: string,
  options: {
    readonly preload?: 'import' | 'require' | 'none';
    readonly env?: Record<string, string | undefined>;
    readonly timeoutMs?: number;
    /** Where the app runs (its node_modules): `appFolder()` by default. */
    readonly cwd?: string;
    /** The runtime and how it preloads register (test/runtimes): this Node, `--import|--require`, by default. */
    readonly runtime?: { readonly executable: string; readonly args: (preload: 'import' | 'require') => string[] };
    /** Once the app has printed `printed`, `run` runs (e.g. scrapes it, or stops it with a signal). */
    readonly whenPrinted?: { readonly printed: string; readonly run: (child: ChildProcess) => Promise<void> };
  } = {},
): Promise<AppRun> {
  const receiver = await startOtlpReceiver();
  try {
    const { preload = fixture.endsWith('.cjs') ? 'require' : 'import', timeoutMs = 30_000 } = options;
    const env: Record<string, string | undefined> = { ...process.env };
    for (const key of Object.keys(env)) if (key.startsWith('OTEL_')) delete env[key];
    Object.assign(env, {
      OTEL_SERVICE_NAME: 'zero-code-app',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // the two a user would not set: the receiver reads what it got as OTLP/JSON (it has no protobuf
      // decoder), and metrics are exported once, at the flush on exit (a second export of a slow run
      // would count each cumulative point twice)
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
      ...options.env,
    });
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    const {
      executable = process.execPath,
      args: preloading = (how: 'import' | 'require') => [`--${how}`, 'otel-tool-calls/register'],
    } = options.runtime ?? {};
    const args = preload === 'none' ? [] : preloading(preload);
    const path = fixture.startsWith('/') ? fixture : fixtureFile(fixture);
    const child = spawn(executable, [...args, path], { cwd: options.cwd ?? appFolder(), env });
    let stdout = '';
    let stderr = '';
    let interaction: Promise<void> | undefined;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const { whenPrinted } = options;
      if (whenPrinted && interaction === undefined && stdout.includes(whenPrinted.printed)) {
        interaction = whenPrinted.run(child);
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(timer);
    await interaction;
    const json = receiver.requests.filter((request) => request.contentType?.includes('json'));
    return {
      code,
      signal,
      stdout,
      stderr,
      spans: spansOf(json),
      metrics: metricsOf(json),
      logs: logsOf(json),
      events: eventsOf(json),
      requests: receiver.requests,
    };
  } finally {
    await receiver.close();
  }
}

/** OTLP/JSON requests as the receiver got them: `spansOf`, `metricsOf` and `logsOf` read what they carry. */
type Requests = readonly ReceivedRequest[];

export function spansOf(requests: Requests): ExportedSpan[] {
  return requests
    .filter((request) => request.path === '/v1/traces')
    .flatMap((request) => JSON.parse(request.body.toString('utf8')).resourceSpans)
    .flatMap((resourceSpans) => {
      const resource = otlpAttributes(resourceSpans.resource.attributes);
      const serviceName = resource['service.name'];
      return resourceSpans.scopeSpans.flatMap((scope: { spans: never[] }) =>
        scope.spans.map((span: ExportedSpan & { attributes: never }) => ({
          ...span,
          parentSpanId: span.parentSpanId || undefined,
          attributes: otlpAttributes(span.attributes),
          serviceName,
          resource,
        })),
      );
    });
}

export function metricsOf(requests: Requests): ExportedMetric[] {
  return requests
    .filter((request) => request.path === '/v1/metrics')
    .flatMap((request) => JSON.parse(request.body.toString('utf8')).resourceMetrics)
    .flatMap((resourceMetrics) => resourceMetrics.scopeMetrics)
    .flatMap((scope) => scope.metrics)
    .map((metric) => {
      const data = metric.histogram ?? metric.sum ?? metric.gauge;
      const points = (data?.dataPoints ?? []) as Array<{
        count?: string | number;
        asInt?: string | number;
        asDouble?: number;
        attributes?: never;
      }>;
      const total = points.reduce(
        (sum, point) => sum + Number(metric.histogram ? point.count : (point.asInt ?? point.asDouble ?? 0)),
        0,
      );
      return { name: metric.name, total, points: points.map((point) => otlpAttributes(point.attributes)) };
    });
}

export function logsOf(requests: Requests): string[] {
  return logRecordsOf(requests).map((record) => String(record.body?.stringValue));
}

export interface ExportedEvent {
  readonly eventName: string;
  readonly attributes: Record<string, unknown>;
  /** Empty when the record was emitted outside any span. */
  readonly traceId: string;
}

export function eventsOf(requests: Requests): ExportedEvent[] {
  return logRecordsOf(requests)
    .filter((record) => typeof record.eventName === 'string' && record.eventName.length > 0)
    .map((record) => ({
      eventName: record.eventName,
      attributes: otlpAttributes(record.attributes),
      traceId: record.traceId ?? '',
    }));
}

function logRecordsOf(requests: Requests) {
  return requests
    .filter((request) => request.path === '/v1/logs')
    .flatMap((request) => JSON.parse(request.body.toString('utf8')).resourceLogs)
    .flatMap((resourceLogs) => resourceLogs.scopeLogs)
    .flatMap((scope) => scope.logRecords);
}

/** The `execute_tool` spans, by tool name, in the order they ended. */
export const toolSpans = (run: AppRun) =>
  run.spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');

/** The total of the metric `name` in the run's last export (histogram: its count; sum: its value), `undefined` when absent. */
export const metricTotal = (run: AppRun, name: string) => run.metrics.find((metric) => metric.name === name)?.total;
