import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { otlpAttributes, type ReceivedRequest, startOtlpReceiver } from '../helpers/otlp-receiver.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface ExportedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly attributes: Record<string, unknown>;
  readonly status: { code?: number; message?: string };
  readonly serviceName: unknown;
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
  /** Every request the receiver got: path and content type. */
  readonly requests: ReadonlyArray<{ readonly path: string; readonly contentType: string | undefined }>;
}

/** The built package, as a child process loads it (`otel-tool-calls/register` resolves to dist/ by self-reference). */
export function builtPackageExists(): boolean {
  return existsSync(`${root}dist/register.js`) && existsSync(`${root}dist/register.cjs`);
}

/** Builds the package (`npx tsup`) if dist/ is missing, for a test file's `beforeAll` (give it 120 s). */
export function buildPackageIfMissing(): void {
  if (!builtPackageExists()) execFileSync('npx', ['tsup'], { cwd: root, stdio: 'ignore' });
}

/**
 * Runs a fixture app (test/register/fixtures) in a child process, `node --import|--require
 * otel-tool-calls/register <fixture>`, with only OTEL_* variables pointing at an OTLP/JSON receiver
 * on 127.0.0.1, and returns what it printed, how it ended, and what the receiver got.
 */
export async function runUnderRegister(
  fixture: string,
  options: {
    readonly preload?: 'import' | 'require' | 'none';
    readonly env?: Record<string, string>;
    readonly timeoutMs?: number;
    /** Where the app runs (its node_modules): the repo by default. */
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
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_LOGS_EXPORTER: 'none',
      // exported once, at the flush on exit
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
      ...options.env,
    });
    const {
      executable = process.execPath,
      args: preloading = (how: 'import' | 'require') => [`--${how}`, 'otel-tool-calls/register'],
    } = options.runtime ?? {};
    const args = preload === 'none' ? [] : preloading(preload);
    const path = fixture.startsWith('/') ? fixture : `${fixtures}${fixture}`;
    const child = spawn(executable, [...args, path], { cwd: options.cwd ?? root, env });
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
      requests: receiver.requests.map(({ path, contentType }) => ({ path, contentType })),
    };
  } finally {
    await receiver.close();
  }
}

/** OTLP/JSON requests as the receiver got them: `spansOf` and `metricsOf` read their spans and metrics. */
type Requests = readonly ReceivedRequest[];

export function spansOf(requests: Requests): ExportedSpan[] {
  return requests
    .filter((request) => request.path === '/v1/traces')
    .flatMap((request) => JSON.parse(request.body.toString('utf8')).resourceSpans)
    .flatMap((resourceSpans) => {
      const serviceName = otlpAttributes(resourceSpans.resource.attributes)['service.name'];
      return resourceSpans.scopeSpans.flatMap((scope: { spans: never[] }) =>
        scope.spans.map((span: ExportedSpan & { attributes: never }) => ({
          ...span,
          parentSpanId: span.parentSpanId || undefined,
          attributes: otlpAttributes(span.attributes),
          serviceName,
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

/** The `execute_tool` spans, by tool name, in the order they ended. */
export const toolSpans = (run: AppRun) =>
  run.spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');
