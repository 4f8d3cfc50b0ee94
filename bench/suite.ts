/**
 * One benchmark process ("world"), started by bench/run.ts:
 *
 *   no-sdk           nothing registered: the API's no-op tracer, meter and context manager
 *   sdk              the real SDK registered globally (bench/lib/sdk-world.ts), as NodeSDK does
 *   capture          the real SDK, content capture on: its 10 MB arguments would slow every GC of `sdk`
 *   signals          the real SDK, the agent signals' cases alone (`npm run bench -- --only signals`)
 *   loader-tsx       a few no-sdk cases, to compare with loader-compiled
 *   loader-compiled  the same, when this file is bundled by esbuild and run by plain node
 *
 * Worlds are separate processes because registering the SDK cannot be undone for the cases that
 * must not see it: its AsyncLocalStorage context manager alone makes every Promise in the process
 * dearer, the bare tool's too.
 *
 * Usage: suite.ts --suite <world> --out <file.json> [--quick] [--mode time|allocation] (bench/lib/world.ts)
 */
import { captureCases, compositeCases, loaderCases, overheadAndScalingCases, targetComparisons } from './lib/cases.js';
import type { BenchCase } from './lib/measure.js';
import type { Comparison } from './lib/paired.js';
import { installSdk } from './lib/sdk-world.js';
import { signalCases, signalComparisons } from './lib/signal-cases.js';
import { runWorld, worldArgs } from './lib/world.js';

export const SUITES = ['no-sdk', 'sdk', 'capture', 'signals', 'loader-tsx', 'loader-compiled'] as const;
export type Suite = (typeof SUITES)[number];

const args = worldArgs(SUITES);
const suite = args.suite as Suite;
const sdk = suite === 'sdk' || suite === 'capture' || suite === 'signals' ? installSdk() : undefined;
let cases: BenchCase[];
let comparisons: Comparison[] = [];
switch (suite) {
  case 'no-sdk':
    cases = overheadAndScalingCases('no-sdk');
    comparisons = targetComparisons('no-sdk');
    break;
  case 'sdk':
    cases = [...overheadAndScalingCases('sdk'), ...compositeCases(), ...signalCases()];
    comparisons = targetComparisons('sdk');
    break;
  case 'signals':
    cases = signalCases();
    comparisons = signalComparisons();
    break;
  case 'capture':
    cases = captureCases();
    comparisons = targetComparisons('capture');
    break;
  case 'loader-tsx':
    cases = loaderCases('tsx');
    break;
  case 'loader-compiled':
    cases = loaderCases('compiled');
    break;
}

await runWorld(args, cases, sdk, comparisons);
