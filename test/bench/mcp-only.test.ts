import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchGroupAlone, benchScratch } from '../helpers/bench-alone.js';

// `npm run bench -- --only mcp --quick` as a user would run it: the MCP round trip alone, its four
// worlds and its target against the floor. No timing is asserted: quick-mode numbers mean nothing.

const scratch = benchScratch('mcp-only');

describe('npm run bench -- --only mcp', () => {
  it('runs the MCP round trip alone: four worlds, observed against the floor as its one target, its JSON, and no other group', async () => {
    const { stdout, stderr, report } = await benchGroupAlone('mcp', join(scratch, 'mcp.json'));
    expect(Object.keys(report).sort()).toEqual([
      'command',
      'elapsedSeconds',
      'generatedAt',
      'machine',
      'mcpRoundTrip',
      'quick',
      'targets',
    ]);
    expect(report.command).toBe('node --import tsx bench/run.ts --only mcp --quick');
    const { mcpRoundTrip } = report;
    for (const world of ['noSdkNs', 'sdkNs', 'floorNs', 'observedNs']) expect(mcpRoundTrip[world]).toBeGreaterThan(0);
    for (const ratios of ['floorRatios', 'ratios', 'noSdkRatios', 'floorOverSdkRatios']) {
      expect(mcpRoundTrip[ratios]).toHaveLength(mcpRoundTrip.pairs);
    }
    // --quick: 15 calls of warm-up in batches of 5, for each of the two server starts, kept apart
    expect(mcpRoundTrip.warmupCalls).toBe(15);
    expect(mcpRoundTrip.warmupFloorRatios).toHaveLength(6);
    for (const ratio of mcpRoundTrip.warmupFloorRatios) expect(ratio).toBeGreaterThan(0);
    expect(report.targets).toHaveLength(1);
    expect(report.targets[0]).toMatchObject({ id: 'mcp-stdio-round-trip', limit: 1.1, pooledOver: 'rounds' });
    expect(report.targets[0].pooled).toEqual(mcpRoundTrip.floorRatios);
    expect(stdout).toContain('floor: the same telemetry written by hand, SDK');
    expect(stdout).toContain("observed × floor (this package's overhead, the target)");
    expect(stdout).toContain("observed × floor while warming up (each server's first 15 calls, not judged)");
    expect(stdout).toContain('Targets (quick mode: not judged on these numbers):');
    expect(stderr).toContain('▶ MCP round trip over stdio');
    expect(stderr).not.toContain('▶ sdk');
    expect(stderr).not.toContain('▶ startup');
  }, 300_000);
});
