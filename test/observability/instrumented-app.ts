/**
 * Starts fixtures/instrumented-tools.ts as a separate process (a real app with the Prometheus exporter)
 * and stops it. The process also stops by itself after `maxSeconds`, should a test run be killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/prometheus.js';
import { terminate } from '../helpers/server-process.js';
import type { RunTally } from './fleet-apps.js';

const fixture = fileURLToPath(new URL('./fixtures/instrumented-tools.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface InstrumentedApp {
  /** `127.0.0.1:<port>`, the scrape target. */
  readonly target: string;
  /** The resource's service.name, seen by Prometheus as target_info's service_name. */
  readonly serviceName: string;
  readonly agentName: string;
  /** What it did, once it has made its `turns` (never resolves without `turns`). */
  tally(): Promise<RunTally>;
  stop(): Promise<void>;
}

export async function startInstrumentedApp({
  serviceName = 'tool-calls-fixture',
  agentName = 'support-agent',
  maxSeconds = 300,
  turns,
  port: givenPort,
}: {
  serviceName?: string;
  agentName?: string;
  maxSeconds?: number;
  /** Stop calling after this many agent turns (serving the metrics on); none: until stopped. */
  turns?: number;
  /** The port to serve /metrics on (a scrape target chosen before the app starts). @default a free one */
  port?: number;
} = {}): Promise<InstrumentedApp> {
  const port = givenPort ?? (await freePort());
  // node --import tsx: one process (the tsx CLI would add a parent), resolving `otel-tool-calls` through tsconfig paths
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fixture,
      '--port',
      String(port),
      '--service',
      serviceName,
      '--agent',
      agentName,
      '--max-seconds',
      String(maxSeconds),
      ...(turns === undefined ? [] : ['--turns', String(turns)]),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let finished: (tally: RunTally) => void = () => {};
  const tally = new Promise<RunTally>((resolve) => {
    finished = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const done = output.split('\n').find((line) => line.startsWith('{"done":true'));
    if (done) finished(JSON.parse(done) as RunTally);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await terminate(child, exited);
  };

  try {
    await waitFor(
      `the instrumented app to serve metrics on 127.0.0.1:${port}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}: ${output}`);
        if (!output.includes('"ready":true')) return undefined;
        const response = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) });
        return response.ok ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { target: `127.0.0.1:${port}`, serviceName, agentName, tally: () => tally, stop };
}
