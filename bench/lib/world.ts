import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FULL_ALLOCATION, measureAllocation, QUICK_ALLOCATION } from './allocation.js';
import { type BenchCase, FULL_SETTINGS, measure, QUICK_SETTINGS } from './measure.js';
import type { Comparison } from './paired.js';
import type { installSdk } from './sdk-world.js';

/**
 * What every benchmark process (bench/suite.ts, bench/peers/suite.ts) shares: its arguments, and
 * measuring its cases and writing them as JSON for bench/run.ts.
 *
 *   --suite <world> --out <file.json> [--quick] [--mode time|allocation|paired]
 *
 * `time` (the default) is the CPU time per call of every case, then the comparisons in pairs;
 * `paired` only the comparisons (and the cases they compare): the targets' comparisons are measured
 * again in processes of their own, whose spread is what the band rule reads (bench/lib/band.ts);
 * `allocation` the bytes allocated per call of the cases with one call in flight
 * (bench/lib/allocation.ts), in a process started with a young generation large enough for it.
 */
export interface WorldArgs {
  readonly suite: string;
  readonly out: string;
  readonly quick: boolean;
  readonly mode: 'time' | 'paired' | 'allocation';
}

export function worldArgs(suites: readonly string[]): WorldArgs {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string' },
      out: { type: 'string' },
      quick: { type: 'boolean', default: false },
      mode: { type: 'string', default: 'time' },
    },
  });
  const { suite, out, quick, mode } = values;
  if (!suite || !suites.includes(suite) || !out || (mode !== 'time' && mode !== 'paired' && mode !== 'allocation')) {
    throw new Error(`usage: --suite ${suites.join('|')} --out <file.json> [--quick] [--mode time|paired|allocation]`);
  }
  return { suite, out, quick: quick === true, mode };
}

export async function runWorld(
  args: WorldArgs,
  cases: BenchCase[],
  sdk?: ReturnType<typeof installSdk>,
  comparisons: readonly Comparison[] = [],
) {
  const progress = (message: string) => process.stderr.write(`  [${args.suite}] ${message}\n`);
  const started = performance.now();
  const settings = args.quick ? QUICK_SETTINGS : FULL_SETTINGS;
  const result =
    args.mode === 'time'
      ? await measure(cases, settings, progress, comparisons)
      : args.mode === 'paired'
        ? // every case calibrated (and so run) as in `time`, so that the code they share has seen the same
          // calls when the pairs start; no rounds
          { paired: (await measure(cases, { ...settings, rounds: 0 }, progress, comparisons)).paired }
        : {
            allocations: await measureAllocation(
              cases.filter((benchCase) => benchCase.inFlight === 1),
              args.quick ? QUICK_ALLOCATION : FULL_ALLOCATION,
              progress,
            ),
          };
  await sdk?.flush();
  writeFileSync(
    args.out,
    JSON.stringify({
      suite: args.suite,
      mode: args.mode,
      elapsedMs: Math.round(performance.now() - started),
      exportedSpans: sdk?.exportedSpans(),
      exportedSpansByScope: sdk?.exportedSpansByScope(),
      ...result,
    }),
  );
  await sdk?.shutdown();
}
