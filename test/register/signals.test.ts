import type { ChildProcess } from 'node:child_process';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

const sigterm = { printed: 'ready', run: async (child: ChildProcess) => void child.kill('SIGTERM') };

/** How long after the signal the app exited, as it measured it itself. */
function exitDelayMs(stdout: string): number {
  const match = /exited with \d+, (\d+) ms after the signal/.exec(stdout);
  if (match === null) throw new Error(`the app did not say when it exited: ${stdout}`);
  return Number(match[1]);
}

/*
 * The signal contract (docs/zero-code.md, "The exit"): with no handler of the app's, the flush, then
 * the end by the signal (lifecycle.test.ts, shutdown-bound.test.ts); with one, `on` or `once`, a
 * flush only: the app ends when it decides, what it records until then is exported at its exit.
 */
describe('otel-tool-calls/register: an app that handles SIGTERM itself', () => {
  it.each(['once', 'on'])(
    'process.%s: the app drains to its end (not killed by the signal, the SDK not shut down), and the tool call of its drain is exported at its exit',
    async (handler) => {
      const run = await runUnderRegister('drains-on-signal.mjs', {
        env: { HANDLER: handler, DRAIN_MS: '200' },
        whenPrinted: sigterm,
      });
      expect(run.stderr).toBe('');
      expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
      expect(run.stdout).toMatch(/^ready\ndraining\ndrained\nexited with 0, \d+ ms after the signal\n$/);
      expect(toolSpans(run).map((span) => span.name)).toEqual(['execute_tool echo', 'execute_tool echo']);
      // exported at the signal (the call before it), then at the exit: cumulative, the last counts both
      const durations = run.metrics.filter((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(durations.map((metric) => metric.total)).toEqual([1, 2]);
    },
  );

  it.each([
    ['at-once', 'in its handler (signal-exit)', ['execute_tool echo']],
    ['after-drain', 'after its drain (graceful-shutdown helpers)', ['execute_tool echo', 'execute_tool echo']],
  ])(
    'raising SIGTERM again %s, %s: it ends by the signal, the tool calls before the signal and of its drain exported first',
    async (reraise, _when, spans) => {
      const run = await runUnderRegister('reraises-on-signal.mjs', { env: { RERAISE: reraise }, whenPrinted: sigterm });
      expect(run.stderr).toBe('');
      expect({ code: run.code, signal: run.signal }).toEqual({ code: null, signal: 'SIGTERM' });
      expect(run.stdout).toBe(reraise === 'at-once' ? 'ready\ndraining\n' : 'ready\ndraining\ndrained\n');
      expect(toolSpans(run).map((span) => span.name)).toEqual(spans);
      // the flush at exit, with every call: cumulative, its last point counts them all
      const durations = run.metrics.filter((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(durations.at(-1)?.total).toBe(spans.length);
    },
  );

  it('with the collector down, it exits within OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS once it ends, not after the exporters retries of the flush the signal started', async () => {
    const run = await runUnderRegister('drains-on-signal.mjs', {
      // nothing listens there: each export is refused, and retried with backoff for 10 s
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
        OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: '500',
      },
      whenPrinted: sigterm,
    });
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
    expect(run.stdout).toContain('drained\n');
    // a 500 ms bound, a wide margin: what is checked is that the exit does not wait for the retries (8 s)
    expect(exitDelayMs(run.stdout)).toBeLessThan(5000);
  });
});
