/**
 * The demo (examples/demo) as its tests run it: a child process as `npm start` starts it, and the two tables
 * of its summary, read from its output (the metrics it recorded, each tool with its error policy; the calls
 * the tools ran, from the spans).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The demo as `npm start` runs it, bounded: killed (its process group) after `boundMs`. */
export function startDemo(args: string[], env: NodeJS.ProcessEnv, boundMs = 40_000) {
  const child = spawn('npx', ['tsx', 'examples/demo/main.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    detached: true, // its own process group, so that npx, tsx and node all go on a kill
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const kill = () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  };
  const timer = setTimeout(kill, boundMs);
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return { exited, kill, output: () => ({ stdout, stderr }) };
}

export interface MetricsRow {
  policy: string;
  /** Every call, the model's wrong ones included. */
  calls: number;
  reported: number;
  rethrown: number;
  /** Also among `reported`/`rethrown`. */
  wrongByModel: number;
  /** Seconds, two decimals, or `-` (no call the tool ran). */
  p95: string;
}

export interface TableRow {
  calls: number;
  reported: number;
  rethrown: number;
  p50: number;
  p95: number;
  p99: number;
}

/** The rows of the metrics table (tool, error policy, calls, errors reported, rethrown, the model's, p95), by tool name. */
export function parseMetricsTable(stdout: string): Map<string, MetricsRow> {
  const rows = new Map<string, MetricsRow>();
  for (const line of stdout.split('\n')) {
    const match = /^([a-z_]+)\s{2,}(\S.*?)\s{2,}(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+\.\d\d|-)$/.exec(line);
    if (!match) continue;
    const [calls, reported, rethrown, wrongByModel] = match.slice(3, 7).map(Number) as number[];
    rows.set(
      match[1] as string,
      { policy: match[2] as string, calls, reported, rethrown, wrongByModel, p95: match[7] } as MetricsRow,
    );
  }
  return rows;
}

/** The rows of the spans' table (the calls the tools ran), by tool name. */
export function parseToolTable(stdout: string): Map<string, TableRow> {
  const rows = new Map<string, TableRow>();
  for (const line of stdout.split('\n')) {
    const match = /^([a-z_]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/.exec(line);
    if (!match) continue;
    const [calls, reported, rethrown, p50, p95, p99] = match.slice(2).map(Number) as number[];
    rows.set(match[1] as string, { calls, reported, rethrown, p50, p95, p99 } as TableRow);
  }
  return rows;
}
