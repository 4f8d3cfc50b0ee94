import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixtures/heap-after-calls.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const MB = 1024 * 1024;
/** A leak of 50 bytes per call over 100,000 calls would cross it; one span kept per call does, many times over. */
const RETAINED_LIMIT = 5 * MB;

interface HeapReport {
  calls: number;
  baseline: number;
  after: number;
}

/** A fresh process with `--expose-gc`, so the heap is measured after full collections, and nothing else in it. */
async function heapAfterCalls(calls: number, ...flags: string[]): Promise<HeapReport> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', fixture, String(calls), ...flags], {
    cwd: root,
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as HeapReport;
}

describe('memory', () => {
  it('retains no more heap after 100,000 instrumented calls than before them (and the probe does see a leak)', async () => {
    const [instrumented, leaking] = await Promise.all([
      heapAfterCalls(100_000),
      // the control: the same calls with a listener that keeps every span must cross the limit
      heapAfterCalls(20_000, 'retain-spans'),
    ]);
    expect(instrumented.calls).toBe(100_000);
    expect(instrumented.after - instrumented.baseline).toBeLessThan(RETAINED_LIMIT);
    expect(leaking.after - leaking.baseline).toBeGreaterThan(RETAINED_LIMIT);
  }, 150_000);
});
