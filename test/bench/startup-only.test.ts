import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchGroupAlone, benchScratch, runBench } from '../helpers/bench-alone.js';

// `npm run bench -- --only startup --quick` as a user would run it: the startup group alone. No
// timing is asserted: quick-mode numbers mean nothing.

const scratch = benchScratch('startup-only');

describe('npm run bench -- --only startup', () => {
  it('runs the startup group alone: its tables, its targets and its JSON, and no other group', async () => {
    const { stdout, stderr, report } = await benchGroupAlone('startup', join(scratch, 'startup.json'));
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
    await expect(runBench(['--only', 'peers', '--quick'])).rejects.toThrow(
      '--only takes one group: startup, mcp, signals, metrics-paths, collector (not "peers")',
    );
  });
});
