/**
 * A fleet of the fixture app (fixtures/instrumented-tools.ts): processes that push OTLP under
 * `otel-tool-calls/register` with only the variables the README's zero-code line sets, replicas stopped
 * by SIGTERM, short-lived runs that end by themselves. Each prints what it did at its end (its tally), so
 * that a test compares what reached the backends with the calls made.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildPackageIfMissing } from '../register/built-package.js';

const fixture = fileURLToPath(new URL('./fixtures/instrumented-tools.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** What one run of the fixture did, as it printed it at its end. */
export interface RunTally {
  readonly turns: number;
  /** Calls each tool ran. */
  readonly ran: Readonly<Record<string, number>>;
  /** Calls each tool ran that failed. */
  readonly failed: Readonly<Record<string, number>>;
  /** Calls the framework rejected, by the tool name recorded (`_unknown`: a name the app does not have). */
  readonly rejected: Readonly<Record<string, number>>;
  /** The traces with a failed or rejected call. */
  readonly errorTraces: readonly string[];
  /** The decisions told to the listener, by outcome. */
  readonly decisions: Readonly<Record<string, number>>;
}

export interface PushingRun {
  /** OTEL_SERVICE_NAME */
  readonly service: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT */
  readonly endpoint: string;
  /** A short-lived run: this many agent turns, then it ends by itself. */
  readonly turns?: number;
  /** A replica: it runs until SIGTERM, sent this long after it started. */
  readonly runForMs?: number;
  /** Variables besides the README's (a test of another path, e.g. straight into Prometheus). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs the fixture under register, pushing OTLP as the README's zero-code line sets it up, to its end. */
export async function runPushingApp(run: PushingRun): Promise<RunTally> {
  buildPackageIfMissing();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // the variables a user sets, and no OTEL_* of the test's environment
  for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
  Object.assign(env, { OTEL_SERVICE_NAME: run.service, OTEL_EXPORTER_OTLP_ENDPOINT: run.endpoint, ...run.env });
  const child = spawn(
    process.execPath,
    [
      '--import',
      'otel-tool-calls/register',
      '--import',
      'tsx',
      fixture,
      '--telemetry',
      'global',
      '--max-seconds',
      '120',
      ...(run.turns === undefined ? [] : ['--turns', String(run.turns)]),
    ],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let stopper: NodeJS.Timeout | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    // a replica's time runs from its first turn (the start of a process is slow on a busy machine)
    if (run.runForMs !== undefined && stopper === undefined && output.includes('"ready":true')) {
      stopper = setTimeout(() => child.kill('SIGTERM'), run.runForMs);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(stopper);
  clearTimeout(killer);
  const done = output.split('\n').find((line) => line.startsWith('{"done":true'));
  if (code !== 0 || done === undefined) {
    throw new Error(`the fixture app ended with ${code} (${child.signalCode}):\n${output}`);
  }
  return JSON.parse(done) as RunTally;
}

/** The sum of the runs' tallies, tool by tool (and their error traces together). */
export function totalOf(runs: readonly RunTally[]): RunTally {
  const add = (key: 'ran' | 'failed' | 'rejected' | 'decisions') => {
    const sum: Record<string, number> = {};
    for (const run of runs) for (const [name, n] of Object.entries(run[key])) sum[name] = (sum[name] ?? 0) + n;
    return sum;
  };
  return {
    turns: runs.reduce((sum, run) => sum + run.turns, 0),
    ran: add('ran'),
    failed: add('failed'),
    rejected: add('rejected'),
    errorTraces: runs.flatMap((run) => run.errorTraces),
    decisions: add('decisions'),
  };
}
