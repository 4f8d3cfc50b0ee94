import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { buildPackageIfMissing, runUnderRegister } from './run-app.js';

/** A collector that accepts connections and never answers (an exporter waits its whole timeout, 10 s, on it). */
const silentSockets = new Set<Socket>();
const silentCollector = createServer((socket) => {
  silentSockets.add(socket);
  socket.on('close', () => silentSockets.delete(socket));
});
let silentCollectorUrl: string;
let closedPortUrl: string;

beforeAll(async () => {
  buildPackageIfMissing();
  await new Promise<void>((resolve) => silentCollector.listen(0, '127.0.0.1', resolve));
  const address = silentCollector.address();
  silentCollectorUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // nothing listens there: each export is refused, and retried with backoff for 10 s
  closedPortUrl = `http://127.0.0.1:${await freePort()}`;
}, 120_000);

afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silentCollector.close(resolve));
});

/** How long after its last line the app exited, as it measured it itself. */
function exitDelayMs(stdout: string): number {
  const match = /exited (\d+) ms after its last line/.exec(stdout);
  if (match === null) throw new Error(`the app did not say when it exited: ${stdout}`);
  return Number(match[1]);
}

/*
 * A flush that cannot reach a collector takes the exporters' retries and timeouts, 10 s; bounded,
 * the process exits after the bound. The margins are wide (a 500 ms bound, under 5 s): what is
 * checked is that the exit does not wait for the exporters, not how fast it is.
 */
describe('otel-tool-calls/register: the flush at exit is bounded', () => {
  it.each([
    ['nothing listens on the port', () => closedPortUrl],
    ['the collector accepts and never answers', () => silentCollectorUrl],
  ])('%s: the app exits after OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS, with its exit code', async (_, url) => {
    const run = await runUnderRegister('measures-its-exit.mjs', {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: url(), OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: '500' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^hello\n/);
    expect(exitDelayMs(run.stdout)).toBeLessThan(5000);
  });

  it('unset: the default bound, about 1 s, well short of the exporters own 10 s', async () => {
    const run = await runUnderRegister('measures-its-exit.mjs', {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: closedPortUrl },
    });
    expect(run.code).toBe(0);
    expect(exitDelayMs(run.stdout)).toBeLessThan(5000);
  });

  it('the flush is waited for up to the bound: against a collector that never answers, not less', async () => {
    const run = await runUnderRegister('measures-its-exit.mjs', {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: silentCollectorUrl, OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: '2000' },
    });
    expect(run.code).toBe(0);
    // a timer does not fire early: a lower bound holds on a loaded machine too
    expect(exitDelayMs(run.stdout)).toBeGreaterThanOrEqual(1900);
  });

  it('an invalid value: the default, with a diag warning', async () => {
    const run = await runUnderRegister('measures-its-exit.mjs', {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: closedPortUrl,
        OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: 'soon',
        OTEL_LOG_LEVEL: 'warn',
      },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS=soon is not a number of milliseconds from 0 to 2147483647; using 1000',
    );
    expect(exitDelayMs(run.stdout)).toBeLessThan(5000);
  });

  it('SIGTERM with no collector: the app ends by the signal after the bound, not after the exporters', async () => {
    let signalledAt = 0;
    const run = await runUnderRegister('long-running.mjs', {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: closedPortUrl, OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: '500' },
      whenPrinted: {
        printed: 'ready',
        run: async (child) => {
          signalledAt = performance.now();
          child.kill('SIGTERM');
        },
      },
    });
    const endedAfterMs = performance.now() - signalledAt;
    expect(run.signal).toBe('SIGTERM');
    expect(endedAfterMs).toBeLessThan(5000);
  });
});
