/**
 * Runs the real Prometheus tools (`prometheus`, `promtool`, `amtool`: see service-binaries.ts for which) for the tests of the
 * observability stack: a Prometheus server on 127.0.0.1 with a throw-away data directory and a test
 * configuration, and the checkers. Every wait is bounded; every process started here is stopped by `stop()`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.js';
import { terminate } from './server-process.js';

/** The absolute path of an executable on `PATH`, or `undefined`. */
export function findBinary(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** `REQUIRE_SERVICES=1` (CI) turns a missing binary from a skip into a failure. */
export const servicesRequired = process.env.REQUIRE_SERVICES === '1';

export interface BinaryGate {
  /** The binary's path, when it is installed. */
  readonly path: string | undefined;
  /** What is missing and how to install it: the reporter prints it with the skip (or the failure). */
  readonly missing: string;
}

/**
 * Looks a binary up once per test file. Tests call `gate.path ?? skipOrFail(ctx, gate)`: a missing binary
 * skips them with a message saying what is missing, unless `REQUIRE_SERVICES=1`, where it fails them.
 */
export function binaryGate(name: string, debianPackage: string): BinaryGate {
  return {
    path: findBinary(name),
    missing: `${name} is not on PATH (apt-get install ${debianPackage})`,
  };
}

/** Skips the running test (or fails it under REQUIRE_SERVICES=1) because `gate`'s binary is missing. */
export function skipOrFail(ctx: { skip(note?: string): never }, gate: BinaryGate): never {
  if (servicesRequired) throw new Error(`REQUIRE_SERVICES=1 and ${gate.missing}`);
  return ctx.skip(`${gate.missing}; REQUIRE_SERVICES=1 makes this a failure`);
}

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion (bounded by `timeoutMs`) and returns its exit code and output, never throwing on exit codes. */
export function runCommand(file: string, args: readonly string[], timeoutMs = 60_000): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        reject(error);
        return;
      }
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

/**
 * Polls `probe` until it returns a value other than `undefined`, at most `timeoutMs`; on timeout it throws
 * with `description` and the last error seen, so that a failure says what was being waited for (a probe
 * may throw to say what it saw).
 */
export async function waitFor<T>(
  description: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 60_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? last.message : String(last ?? 'no value');
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description} (last: ${detail})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** One series of a Prometheus query result (vector or matrix). */
export interface PrometheusSeries {
  readonly metric: Readonly<Record<string, string>>;
  /** `[unixSeconds, "value"]` of an instant query. */
  readonly value?: readonly [number, string];
  /** The samples of a range query. */
  readonly values?: ReadonlyArray<readonly [number, string]>;
}

export interface PrometheusAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly state: 'pending' | 'firing' | 'inactive';
}

export interface PrometheusAlertingRule {
  readonly name: string;
  readonly type: 'alerting' | 'recording';
  readonly state?: 'pending' | 'firing' | 'inactive';
  readonly health: string;
  readonly lastError?: string;
  /** RFC 3339 time of the last evaluation. */
  readonly lastEvaluation?: string;
  readonly alerts?: readonly PrometheusAlert[];
}

export interface PrometheusTarget {
  readonly labels: Readonly<Record<string, string>>;
  readonly health: 'up' | 'down' | 'unknown';
  readonly lastError: string;
}

export interface PrometheusOptions {
  /** `host:port` targets scraped under `jobName`. */
  readonly targets: readonly string[];
  /** @default 'tool-calls-demo' — the job name of observability/prometheus/prometheus.yml */
  readonly jobName?: string;
  /** Absolute paths of rule files to load. */
  readonly ruleFiles?: readonly string[];
  /** Short intervals so that a test sees rates and alert states within seconds. @default '1s' */
  readonly scrapeInterval?: string;
  /** @default '1s' */
  readonly evaluationInterval?: string;
  /** Bound on the wait for `/-/ready`. @default 30_000 */
  readonly readyTimeoutMs?: number;
  /** `host:port` of Alertmanagers to send alerts to. @default none */
  readonly alertmanagers?: readonly string[];
}

export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The configuration file it runs with. */
  readonly configFile: string;
  /** Instant query at the current time. */
  query(expr: string): Promise<PrometheusSeries[]>;
  /** Range query over the last `seconds`, one sample per `stepSeconds`. */
  queryRange(expr: string, seconds: number, stepSeconds?: number): Promise<PrometheusSeries[]>;
  /** `/api/v1/label/<label>/values?match[]=<match>`: what Grafana's `label_values(match, label)` asks. */
  labelValues(label: string, match: string): Promise<string[]>;
  /** The alerting rules with their current state and alerts. */
  alertingRules(): Promise<PrometheusAlertingRule[]>;
  /** The active scrape targets. */
  targets(): Promise<PrometheusTarget[]>;
  /** What the server printed so far (for failure messages). */
  log(): string;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes its temp directory. Idempotent. */
  stop(): Promise<void>;
}

interface ApiResponse<T> {
  readonly status: 'success' | 'error';
  readonly data: T;
  readonly error?: string;
}

/** The test configuration: same shape as observability/prometheus/prometheus.yml, with short intervals (and Alertmanagers if given). */
export function prometheusTestConfig(options: PrometheusOptions): string {
  const quote = (value: string) => JSON.stringify(value);
  const ruleFiles = options.ruleFiles ?? [];
  const lines = [
    'global:',
    `  scrape_interval: ${options.scrapeInterval ?? '1s'}`,
    `  evaluation_interval: ${options.evaluationInterval ?? '1s'}`,
    `  scrape_timeout: ${options.scrapeInterval ?? '1s'}`,
    ...(ruleFiles.length > 0 ? ['rule_files:', ...ruleFiles.map((file) => `  - ${quote(file)}`)] : []),
    ...(options.alertmanagers?.length
      ? [
          'alerting:',
          '  alertmanagers:',
          '    - static_configs:',
          `        - targets: [${options.alertmanagers.map(quote).join(', ')}]`,
        ]
      : []),
    'scrape_configs:',
    `  - job_name: ${quote(options.jobName ?? 'tool-calls-demo')}`,
    '    metrics_path: /metrics',
    '    static_configs:',
    `      - targets: [${options.targets.map(quote).join(', ')}]`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Starts `prometheus` on 127.0.0.1 and a free port, with a fresh temp dir for its config and TSDB, and waits
 * (bounded) until it is ready. The caller must `stop()` it, in `afterAll`.
 */
export async function startPrometheus(binary: string, options: PrometheusOptions): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, prometheusTestConfig(options));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  const child: ChildProcess = spawn(
    binary,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1h',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    // the tail is enough to explain a failure; the whole log of a long run is not needed
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped = false;

  const stop = async () => {
    if (!stopped) {
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) await terminate(child, exited);
      rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    await waitFor(
      `Prometheus ready on ${url}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${output}`);
        const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2_000) });
        return response.ok ? true : undefined;
      },
      { timeoutMs: options.readyTimeoutMs ?? 30_000 },
    );
  } catch (error) {
    await stop();
    throw error;
  }

  return { url, configFile, ...prometheusClient(url), log: () => output, stop };
}

/** The query API of a Prometheus at `url` (one the test started, or the stack's). */
export function prometheusClient(url: string): Omit<RunningPrometheus, 'url' | 'configFile' | 'log' | 'stop'> {
  const api = async <T>(path: string, params: Record<string, string> = {}): Promise<T> => {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${url}${path}${query ? `?${query}` : ''}`, { signal: AbortSignal.timeout(10_000) });
    const body = (await response.json()) as ApiResponse<T>;
    if (body.status !== 'success') throw new Error(`Prometheus ${path} ${JSON.stringify(params)}: ${body.error}`);
    return body.data;
  };
  return {
    query: async (expr) => (await api<{ result: PrometheusSeries[] }>('/api/v1/query', { query: expr })).result,
    queryRange: async (expr, seconds, stepSeconds = 1) => {
      const end = Date.now() / 1000;
      const data = await api<{ result: PrometheusSeries[] }>('/api/v1/query_range', {
        query: expr,
        start: String(end - seconds),
        end: String(end),
        step: String(stepSeconds),
      });
      return data.result;
    },
    labelValues: (label, match) =>
      api<string[]>(`/api/v1/label/${encodeURIComponent(label)}/values`, { 'match[]': match }),
    alertingRules: async () => {
      const data = await api<{ groups: Array<{ rules: PrometheusAlertingRule[] }> }>('/api/v1/rules', {
        type: 'alert',
      });
      return data.groups.flatMap((group) => group.rules);
    },
    targets: async () => (await api<{ activeTargets: PrometheusTarget[] }>('/api/v1/targets')).activeTargets,
  };
}

/**
 * Waits (bounded) until `tool` has a non-zero error ratio under the alert's threshold (0.1) on at
 * least 20 calls in 5 minutes: the rule then has all it needs, and its silence is a verdict (the
 * first seconds of a series are too short to judge).
 */
export function waitForJudgeableHealthyTool(
  prometheus: RunningPrometheus,
  tool: string,
): Promise<{ calls: number; errorRatio: number }> {
  return waitFor(
    `${tool} with an error ratio in (0, 0.1) on at least 20 calls`,
    async () => {
      const [volume] = await prometheus.query(
        `job_tool:gen_ai_execute_tool_calls:increase5m{gen_ai_tool_name="${tool}"}`,
      );
      const [ratio] = await prometheus.query(`job_tool:tool_call_errors:ratio_rate5m{gen_ai_tool_name="${tool}"}`);
      const calls = Number(volume?.value?.[1] ?? Number.NaN);
      const errorRatio = Number(ratio?.value?.[1] ?? Number.NaN);
      if (!(calls >= 20 && errorRatio > 0 && errorRatio < 0.1)) {
        throw new Error(`calls in 5m: ${calls}, error ratio: ${errorRatio}`);
      }
      return { calls, errorRatio };
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}
