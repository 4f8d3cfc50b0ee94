import { describe, expect, it } from 'vitest';
import { band } from '../../bench/lib/band.js';
import { acrossProcesses, type PairedResult } from '../../bench/lib/paired.js';

// The rule the bench's targets are judged by (BENCHMARKS.md, "Targets"): pure arithmetic, no timing.

describe('band', () => {
  it('takes the interval of the median from the order statistics n/2 ∓ 0.98·√n', () => {
    // 1..100: ranks floor(50 − 9.8) = 40 and ceil(50 + 9.8) − 1 = 59, values 41 and 60
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(band(values, 1000)).toMatchObject({ median: 50.5, low: 41, high: 60, samples: 100 });
  });

  it('spans the lowest to the highest value for a handful of processes', () => {
    expect(band([1.02, 0.97, 1.01, 0.99, 1.0], 2)).toMatchObject({ median: 1.0, low: 0.97, high: 1.02, samples: 5 });
  });

  it('is met when the whole interval is at or under the limit', () => {
    expect(band([0.95, 0.97, 1.0, 0.96, 0.98], 1).verdict).toBe('met');
  });

  it('is MISSED when the whole interval is over the limit', () => {
    expect(band([1.01, 1.03, 1.02, 1.04, 1.05], 1).verdict).toBe('MISSED');
  });

  it('is EDGE when the limit is inside the interval: one process on the other side of it is enough', () => {
    expect(band([0.95, 0.96, 0.97, 0.98, 1.01], 1).verdict).toBe('EDGE');
    expect(band([1.05, 1.04, 1.03, 1.02, 0.99], 1).verdict).toBe('EDGE');
  });

  it('judges differences in ns the same way as ratios', () => {
    expect(band([34, 52, 36, 50, 33], 100).verdict).toBe('met');
    expect(band([120, 150, 160, 195, 110], 150).verdict).toBe('EDGE');
  });

  it('is EDGE with no values at all', () => {
    expect(band([], 1)).toMatchObject({ samples: 0, verdict: 'EDGE' });
  });
});

function result(id: string, ratio: number): PairedResult {
  return {
    id,
    subject: `${id}-subject`,
    reference: `${id}-reference`,
    process: 'sdk',
    pairs: 10,
    ratio,
    ratioQuartiles: [ratio, ratio],
    overNs: 0,
    subjectNs: 1,
    referenceNs: 1,
  };
}

describe('acrossProcesses', () => {
  it("takes one comparison from each process's results, in process order", () => {
    const processes = [
      [result('a', 1.0), result('b', 2.0)],
      [result('b', 2.1), result('a', 1.1)],
      [result('a', 1.2), result('b', 2.2)],
    ];
    expect(acrossProcesses(processes, 'a').map((found) => found.ratio)).toEqual([1.0, 1.1, 1.2]);
  });

  it('fails when a process did not measure the comparison', () => {
    expect(() => acrossProcesses([[result('a', 1)], [result('b', 1)]], 'a')).toThrow(
      'process 1 has no paired comparison a',
    );
  });
});
