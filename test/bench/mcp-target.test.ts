import { describe, expect, it } from 'vitest';
import { formatMcpRoundTrip } from '../../bench/lib/format.js';
import { evaluateMcpTarget, type McpRoundTripResult } from '../../bench/lib/targets.js';

// The MCP round trip's target (issue 39): observed ≤ 1.10 × the hand-written floor, per round,
// judged by the band rule; the ratios to the bare worlds are information. Arithmetic, no timing.

function result(floorRatios: number[]): McpRoundTripResult {
  return {
    pairs: floorRatios.length,
    callsPerBatch: 200,
    warmupCalls: 10_000,
    noSdkNs: 130_000,
    sdkNs: 135_000,
    floorNs: 265_000,
    observedNs: 290_000,
    serverNs: { none: 86_000, sdk: 87_000, floor: 150_000, observed: 165_000 },
    floorRatios,
    ratios: floorRatios.map((ratio) => ratio * 2),
    noSdkRatios: floorRatios.map((ratio) => ratio * 2.1),
    floorOverSdkRatios: floorRatios.map(() => 2),
    warmupFloorRatios: floorRatios.map((ratio) => ratio + 0.1),
  };
}

describe('the MCP round trip target', () => {
  it('judges observed against the floor, per round: met when the whole interval is within 1.10×', () => {
    const target = evaluateMcpTarget(result([1.02, 1.05, 1.04, 1.08, 1.03]));
    expect(target).toMatchObject({ id: 'mcp-stdio-round-trip', limit: 1.1, verdict: 'met', pooledOver: 'rounds' });
    expect(target.value).toBe(1.04);
    expect(target.pooled).toEqual([1.02, 1.05, 1.04, 1.08, 1.03]);
  });

  it('is MISSED when the whole interval is over 1.10×, EDGE when 1.10× is inside it; the ratios to bare do not count', () => {
    expect(evaluateMcpTarget(result([1.3, 1.25, 1.32, 1.28, 1.31])).verdict).toBe('MISSED');
    expect(evaluateMcpTarget(result([1.02, 1.05, 1.12, 1.08, 1.15])).verdict).toBe('EDGE');
  });

  it('prints the four worlds with their server share, each ratio with its interval, and the warm-up apart', () => {
    const text = formatMcpRoundTrip(result([1.02, 1.05, 1.04, 1.08, 1.03]));
    expect(text).toContain('5 rounds of 200 calls per world, each server warmed up with 10000 calls first');
    expect(text).toMatch(/floor: the same telemetry written by hand, SDK +265\.0 µs {3}\(server 150\.0 µs\)/);
    expect(text).toMatch(/client and server observed, SDK +290\.0 µs {3}\(server 165\.0 µs\)/);
    expect(text).toContain("observed × floor (this package's overhead, the target): 1.04× (95 % interval 1.02–1.08×)");
    expect(text).toContain('floor × bare with the SDK (the telemetry itself, done by hand): 2.00×');
    expect(text).toContain(
      "observed × floor while warming up (each server's first 10000 calls, not judged): 1.14× (95 % interval 1.12–1.18×)",
    );
  });
});
