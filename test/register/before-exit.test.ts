import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe("otel-tool-calls/register: the app's 'beforeExit' handlers run as without it", () => {
  it('a handler that schedules nothing runs once, and the tool call it makes is flushed', async () => {
    const bare = await runUnderRegister('before-exit-once.mjs', { preload: 'none' });
    const run = await runUnderRegister('before-exit-once.mjs');
    expect(bare.stdout).toBe('hello\nbeforeExit handled 1 times, exit code 5\n');
    expect(run.stdout).toBe(bare.stdout);
    expect(run.code).toBe(5);
    expect(toolSpans(run).map((span) => span.attributes['gen_ai.tool.name'])).toEqual(['echo', 'echo']);
  });

  it('a handler that schedules a job at each one until its queue is empty runs once per job and once more; each job is flushed', async () => {
    const bare = await runUnderRegister('before-exit-queue.mjs', { preload: 'none' });
    const run = await runUnderRegister('before-exit-queue.mjs');
    expect(bare.stdout).toBe('started\nbeforeExit handled 4 times, job 1, job 2, job 3, exit code 3\n');
    expect(run.stdout).toBe(bare.stdout);
    expect(run.code).toBe(3);
    expect(toolSpans(run)).toHaveLength(3);
  });

  it.each([
    ['a log line', 1],
    ['a nextTick and a microtask', 1],
    ['an unref timer', 1],
    ['a timer', 2],
    ['an immediate', 2],
    ['thread-pool work', 2],
  ])('a handler that does %s: %i times, as without register', async (work, times) => {
    const bare = await runUnderRegister('before-exit-work.mjs', { preload: 'none', env: { WORK: work } });
    const run = await runUnderRegister('before-exit-work.mjs', { env: { WORK: work } });
    expect(bare.stdout).toContain(`beforeExit handled ${times} times, exit code 0\n`);
    expect(run.stdout).toBe(bare.stdout);
    expect(run.code).toBe(0);
  });
});
