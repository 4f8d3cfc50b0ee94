import { describe, expect, it } from 'vitest';
import { addMillis, wallClockNow } from '../../src/otel/span-time.js';

describe('span times (HrTime from the wall clock and a monotonic duration)', () => {
  it('takes the wall clock in whole milliseconds, split exactly', () => {
    const before = Date.now();
    const [seconds, nanos] = wallClockNow();
    const after = Date.now();
    expect(Number.isInteger(seconds) && Number.isInteger(nanos)).toBe(true);
    expect(nanos % 1_000_000).toBe(0);
    expect(seconds * 1000 + nanos / 1e6).toBeGreaterThanOrEqual(before);
    expect(seconds * 1000 + nanos / 1e6).toBeLessThanOrEqual(after);
  });

  it('adds a duration to the nanosecond, carrying into the seconds', () => {
    expect(addMillis([10, 999_000_000], 2.5)).toEqual([11, 1_500_000]);
    expect(addMillis([10, 0], 0.000_001)).toEqual([10, 1]);
    expect(addMillis([10, 500], 3_000.25)).toEqual([13, 250_500]);
    expect(addMillis([10, 0], 0)).toEqual([10, 0]);
  });
});
