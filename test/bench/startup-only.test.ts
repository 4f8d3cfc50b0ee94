import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run bench -- --only startup --quick` as a user would run it: the startup group alone. No
// timing is asserted: quick-mode numbers mean nothing.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'bench-startup-only-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const bench = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: root, timeout: 300_000 });

describe('npm run bench -- --only startup', () => {
  it('runs the startup group alone: its tables, its targets and its JSON, and no other group', async () => {
    const out = join(scratch, 'startup.json');
    const { stdout, stderr } = await bench('--only', 'startup', '--quick', '--out', out);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(Object.keys(report).sort()).toEqual([
      'command',
      'elapsedSeconds',
      'generatedAt',
      'machine',
      'quick',
      'startup',
      'targets',
    ]);
    expect(report.command).toBe('node --import tsx bench/run.ts --only startup --quick');
    const runtimes = (report.startup.runtimes as { runtime: { id: string } }[]).map(({ runtime }) => runtime.id);
    expect(report.targets.map((target: { id: string }) => target.id)).toEqual(
      runtimes.flatMap((id) => [
        `startup-register-cpu-${id}`,
        `startup-register-rss-${id}`,
        `startup-register-vs-floor-cpu-${id}`,
        `startup-register-vs-floor-rss-${id}`,
      ]),
    );
    expect(stdout).toContain(`Startup on Node ${process.versions.node} (whole process`);
    expect(stdout).toContain('Targets (quick mode: not judged on these numbers):');
    // the per-call and MCP groups did not run
    expect(stderr).not.toContain('▶ sdk');
    expect(stderr).not.toContain('▶ MCP round trip');
  }, 300_000);

  it('names the groups it takes when given another', async () => {
    await expect(bench('--only', 'peers', '--quick')).rejects.toThrow(
      '--only takes one group: startup, mcp, signals, metrics-paths, collector (not "peers")',
    );
  });
});
