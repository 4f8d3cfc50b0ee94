import { median } from './sampling.js';

/**
 * The rule a pooled target is judged by, so that the same code gets the same verdict twice on a
 * noisy machine: the median of the pooled paired values (one per pair: per round of processes for
 * the startup group, per pair of batches for the rest) and a 95 % confidence interval of that
 * median from the order statistics (distribution-free: ranks n/2 ∓ 0.98·√n). The verdict:
 *
 * - `met`: the whole interval is at or under the limit;
 * - `MISSED`: the whole interval is over it;
 * - `EDGE`: the limit is inside the interval: this many pairs on this machine cannot tell the two
 *   apart, and another run could fall either side; it is printed as such, not as met.
 *
 * A run meets or misses a target only when the difference is larger than the noise; a second
 * run then agrees with it 95 % of the time or more (both intervals cover the true value).
 */
export type Verdict = 'met' | 'MISSED' | 'EDGE';

export interface Band {
  readonly median: number;
  /** The 95 % confidence interval of the median. */
  readonly low: number;
  readonly high: number;
  readonly samples: number;
  readonly verdict: Verdict;
}

export function band(values: readonly number[], limit: number): Band {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { median: Number.NaN, low: Number.NaN, high: Number.NaN, samples: 0, verdict: 'EDGE' };
  const spread = 0.98 * Math.sqrt(n);
  const lowRank = Math.max(0, Math.floor(n / 2 - spread));
  const highRank = Math.min(n - 1, Math.ceil(n / 2 + spread) - 1);
  const low = sorted[lowRank] as number;
  const high = sorted[highRank] as number;
  const verdict: Verdict = high <= limit ? 'met' : low > limit ? 'MISSED' : 'EDGE';
  return { median: median(sorted), low, high, samples: n, verdict };
}
