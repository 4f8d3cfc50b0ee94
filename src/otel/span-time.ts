import type { HrTime } from '@opentelemetry/api';

const MS_PER_SECOND = 1000;
const NS_PER_MS = 1_000_000;
const NS_PER_SECOND = 1_000_000_000;

/**
 * A span's start and end as `HrTime`, anchored as the SDK anchors a span it times itself: the wall
 * clock (`Date.now()`) at the start, then the monotonic clock's delta to the end. Given as HrTime,
 * the SDK takes them as they are; given as `performance.now()` readings it would read its clock
 * again and convert each (three arrays and a `timeOrigin` read per time). The end is the start plus
 * the same duration the histogram records, so the span and the sample agree to the nanosecond.
 */
export function wallClockNow(): HrTime {
  // whole milliseconds: the split into seconds and nanoseconds is exact
  const now = Date.now();
  const seconds = Math.trunc(now / MS_PER_SECOND);
  return [seconds, (now - seconds * MS_PER_SECOND) * NS_PER_MS];
}

/** `start` plus `durationMs` (a difference of two `performance.now()` readings). */
export function addMillis(start: HrTime, durationMs: number): HrTime {
  const wholeSeconds = Math.trunc(durationMs / MS_PER_SECOND);
  let seconds = start[0] + wholeSeconds;
  let nanos = start[1] + Math.round((durationMs - wholeSeconds * MS_PER_SECOND) * NS_PER_MS);
  if (nanos >= NS_PER_SECOND) {
    seconds += 1;
    nanos -= NS_PER_SECOND;
  } else if (nanos < 0) {
    seconds -= 1;
    nanos += NS_PER_SECOND;
  }
  return [seconds, nanos];
}
