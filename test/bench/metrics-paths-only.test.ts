import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run bench -- --only metrics-paths --quick` as a user would run it: the metrics paths group alone
// (push over OTLP against /metrics, per call and at start). No timing is asserted: quick-mode numbers
// mean nothing; what is checked is that every path ran, every export arrived, and the report says so.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'bench-metrics-paths-only-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm run bench -- --only metrics-paths', () => {
  it('runs the metrics paths group alone: per call and at start, its ratios and its JSON, no target and no other group', async () => {
    const out = join(scratch, 'metrics-paths.json');
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--only', 'metrics-paths', '--quick', '--out', out],
      { cwd: root, timeout: 300_000 },
    );
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(Object.keys(report).sort()).toEqual([
      'command',
      'elapsedSeconds',
      'generatedAt',
      'machine',
      'metricsPaths',
      'quick',
      'targets',
    ]);
    expect(report.command).toBe('node --import tsx bench/run.ts --only metrics-paths --quick');
    expect(report.targets).toEqual([]);
    const { perCall, atStart } = report.metricsPaths;
    // --quick: one process of two rounds of 500 calls per path
    expect([perCall.processes, perCall.roundsPerProcess, perCall.callsPerBatch]).toEqual([1, 2, 500]);
    for (const batches of perCall.batchesByProcess) {
      for (const id of ['pull', 'push-protobuf', 'push-json']) {
        expect(batches[id].exportNs, id).toHaveLength(2);
        // each export reached the peer with the duration histogram in it (the process checks), its size kept
        for (const bytes of batches[id].payloadBytes) expect(bytes, id).toBeGreaterThan(1000);
      }
    }
    expect(perCall.comparisons.map((c: { id: string }) => c.id)).toEqual([
      'push-protobuf-vs-pull',
      'push-json-vs-pull',
    ]);
    expect(atStart.rounds).toBe(1);
    expect(atStart.comparisons.map((c: { id: string }) => c.id)).toEqual([
      'setup-otlp-vs-prometheus',
      'register-otlp-vs-prometheus',
    ]);
    expect(stdout).toContain('the metrics paths group alone (QUICK MODE: not measurements)');
    expect(stdout).toContain('  push-json ÷ pull, per call: ');
    expect(stdout).toContain('  register-otlp ÷ register-prometheus: CPU ');
    expect(stdout).not.toContain('Targets');
    expect(stderr).toContain('▶ metrics paths at start');
    expect(stderr).not.toContain('▶ sdk');
    expect(stderr).not.toContain('▶ MCP round trip');
  }, 300_000);
});
