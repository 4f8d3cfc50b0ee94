/**
 * `npm run stack` as a user runs it: the compose file's services on 127.0.0.1 with the compose file's
 * ports, `stack ready` with the endpoints once every one answers, every process stopped by SIGTERM; a
 * missing binary and a port in use are one clear line each, with nothing started.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { skipOrFail, waitFor } from '../helpers/prometheus.js';
import { answers } from '../helpers/server-process.js';
import { stackGate } from './stack-gate.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const gate = stackGate();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `npm run stack`'s command (package.json: `tsx scripts/stack/main.ts`), as one process: `node --import tsx`. */
function runStack(env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.stack).toBe('tsx scripts/stack/main.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-stack-command-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/stack/main.ts', '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', resolve));
}

/** The stack's services among the processes whose parent is `pid` (tsx has a child of its own: esbuild). */
function servicesOf(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
  return (
    out
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      // the command name as the kernel keeps it: 15 characters
      .filter(([, command]) => /^(otelcol-tool-c|jaeger|prometheus|alertmanager)/.test(command ?? ''))
      .map(([pid]) => Number(pid))
  );
}

/** Stops a runner a failed test left: SIGTERM (it stops its services), then SIGKILL, then any service left. */
async function cleanUp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const services = servicesOf(child.pid!);
  child.kill('SIGTERM');
  const ended = await Promise.race([
    exited(child),
    new Promise((resolve) => setTimeout(() => resolve('late'), 20_000)),
  ]);
  if (ended === 'late') child.kill('SIGKILL');
  for (const pid of services) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

describe('npm run stack', () => {
  it('prints stack ready with the endpoints once every service answers; SIGTERM stops every process it started', async (ctx) => {
    if (!gate.path) return skipOrFail(ctx, gate);
    const { child, output } = runStack();
    try {
      await waitFor(
        'stack ready',
        async () => {
          if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}: ${output()}`);
          return output().includes('stack ready') ? true : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 500 },
      );
      // the compose file's published ports, on 127.0.0.1
      expect(output()).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318');
      for (const url of [
        'http://127.0.0.1:16686/api/services',
        'http://127.0.0.1:9090/-/ready',
        'http://127.0.0.1:9093/-/ready',
      ]) {
        expect(await answers(url), url).toBe(true);
      }
      const traces = await fetch('http://127.0.0.1:4318/v1/traces', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"resourceSpans":[]}',
      });
      expect(traces.status).toBe(200);
      const services = servicesOf(child.pid!);
      expect(services).toHaveLength(4);

      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
      expect(output()).toContain('stack stopped');
      for (const pid of services) expect(() => process.kill(pid, 0), `service process ${pid}`).toThrow(/ESRCH/);
    } finally {
      await cleanUp(child);
    }
  }, 180_000);

  it('says which binary is missing and that scripts/services.sh builds it, starting nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'otel-tool-calls-no-binaries-'));
    dirs.push(empty);
    const { child, output } = runStack({ OTEL_TOOL_CALLS_SERVICES_BIN: empty });
    expect(await exited(child)).toBe(1);
    expect(output()).toContain(`the stack needs otelcol-tool-calls, jaeger, prometheus, alertmanager, not in ${empty}`);
    expect(output()).toContain('bash scripts/services.sh');
    expect(output()).not.toContain('stack ready');
  }, 60_000);

  it('says which published port is in use, starting nothing', async (ctx) => {
    if (!gate.path) return skipOrFail(ctx, gate);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(9093, '127.0.0.1', resolve));
    try {
      const { child, output } = runStack();
      expect(await exited(child)).toBe(1);
      expect(output()).toContain('port 9093 (alertmanager) in use on 127.0.0.1');
      expect(output()).not.toContain('stack ready');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
