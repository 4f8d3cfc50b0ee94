import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixtures/repeat-table-heap.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const MB = 1024 * 1024;
/**
 * Generous: the table at its worst holds about 4 MB (docs/opentelemetry.md); before, it kept the
 * first call's arguments of each trace: 264 MB after the in-process run below, 134 MB after the MCP one.
 */
const RETAINED_LIMIT = 8 * MB;

interface HeapReport {
  calls: number;
  baseline: number;
  after: number;
}

/** A fresh process with `--expose-gc`: the heap measured after full collections, nothing else in it. */
async function retainedAfter(...args: string[]): Promise<number> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', fixture, ...args], {
    cwd: root,
    timeout: 60_000,
  });
  const report = JSON.parse(stdout.trim().split('\n').at(-1) as string) as HeapReport;
  return report.after - report.baseline;
}

describe('the repeat table keeps no caller’s arguments alive (recordRepeatedCalls on, its default)', () => {
  it('in-process: 1,024 calls with 256 KB arguments, each in a trace of its own, retain under 8 MB (and the probe sees arguments kept alive)', async () => {
    const [observed, keptAlive] = await Promise.all([
      retainedAfter('in-process', '1024', '256'),
      // the control: the same calls with a listener that keeps every call's arguments
      retainedAfter('in-process', '128', '256', 'keep-arguments'),
    ]);
    expect(observed).toBeLessThan(RETAINED_LIMIT);
    expect(keptAlive).toBeGreaterThan(RETAINED_LIMIT);
  }, 90_000);

  it('an MCP server (instrumentServer, defaults) whose peer sends a fresh trace id in _meta on each of 256 calls of 512 KB retains under 8 MB', async () => {
    const [observed, keptAlive] = await Promise.all([
      retainedAfter('mcp', '256', '512'),
      retainedAfter('mcp', '64', '512', 'keep-arguments'),
    ]);
    expect(observed).toBeLessThan(RETAINED_LIMIT);
    expect(keptAlive).toBeGreaterThan(RETAINED_LIMIT);
  }, 90_000);
});
