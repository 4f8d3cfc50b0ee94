import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchGroupAlone, benchScratch } from '../helpers/bench-alone.js';

// `npm run bench -- --only metrics-paths --quick` as a user would run it: the metrics paths group alone
// (push over OTLP against /metrics, per call and at start). No timing is asserted: quick-mode numbers
// mean nothing; what is checked is that every path ran, every export arrived, and the report says so.

const scratch = benchScratch('metrics-paths-only');

describe('npm run bench -- --only metrics-paths', () => {
  it('runs the metrics paths group alone: per call and at start, its ratios and its JSON, no target and no other group', async () => {
    const { stdout, stderr, report } = await benchGroupAlone('metrics-paths', join(scratch, 'metrics-paths.json'));
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
