/**
 * Starts fixtures/instrumented-tools.ts as a separate process (a real app with the Prometheus exporter)
 * and stops it. The process also stops by itself after `maxSeconds`, should a test run be killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/prometheus.js';

const fixture = fileURLToPath(new URL('./fixtures/instrumented-tools.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface InstrumentedApp {
  /** `127.0.0.1:<port>`, the scrape target. */
  readonly target: string;
  /** The resource's service.name, seen by Prometheus as target_info's service_name. */
  readonly serviceName: string;
  readonly agentName: string;
  stop(): Promise<void>;
}

export async function startInstrumentedApp({
  serviceName = 'tool-calls-fixture',
  agentName = 'support-agent',
  maxSeconds = 300,
} = {}): Promise<InstrumentedApp> {
  const port = await freePort();
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
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const ended = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    if (!ended) {
      child.kill('SIGKILL');
      await exited;
    }
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
  return { target: `127.0.0.1:${port}`, serviceName, agentName, stop };
}
