/**
 * One benchmark process ("world"), started by bench/run.ts:
 *
 *   no-sdk           nothing registered: the API's no-op tracer, meter and context manager
 *   sdk              the real SDK registered globally (bench/lib/sdk-world.ts), as NodeSDK does
 *   capture          the real SDK, content capture on: its 10 MB arguments would slow every GC of `sdk`
 *   loader-tsx       a few no-sdk cases, to compare with loader-compiled
 *   loader-compiled  the same, when this file is bundled by esbuild and run by plain node
 *
 * Worlds are separate processes because registering the SDK cannot be undone for the cases that
 * must not see it: its AsyncLocalStorage context manager alone makes every Promise in the process
 * dearer, the bare tool's too.
 *
 * Usage: suite.ts --suite <world> --out <file.json> [--quick]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { captureCases, compositeCases, loaderCases, overheadAndScalingCases } from './lib/cases.js';
import { type BenchCase, FULL_SETTINGS, measure, QUICK_SETTINGS } from './lib/measure.js';
import { installSdk } from './lib/sdk-world.js';

export const SUITES = ['no-sdk', 'sdk', 'capture', 'loader-tsx', 'loader-compiled'] as const;
export type Suite = (typeof SUITES)[number];

const { values } = parseArgs({
  options: { suite: { type: 'string' }, out: { type: 'string' }, quick: { type: 'boolean', default: false } },
});
const suite = values.suite as Suite;
if (!SUITES.includes(suite) || !values.out) {
  throw new Error(`usage: suite.ts --suite ${SUITES.join('|')} --out <file.json> [--quick]`);
}

const sdk = suite === 'sdk' || suite === 'capture' ? installSdk() : undefined;
let cases: BenchCase[];
switch (suite) {
  case 'no-sdk':
    cases = overheadAndScalingCases('no-sdk');
    break;
  case 'sdk':
    cases = [...overheadAndScalingCases('sdk'), ...compositeCases()];
    break;
  case 'capture':
    cases = captureCases();
    break;
  case 'loader-tsx':
    cases = loaderCases('tsx');
    break;
  case 'loader-compiled':
    cases = loaderCases('compiled');
    break;
}

const started = performance.now();
const rows = await measure(cases, values.quick ? QUICK_SETTINGS : FULL_SETTINGS, (message) =>
  process.stderr.write(`  [${suite}] ${message}\n`),
);
await sdk?.flush();
writeFileSync(
  values.out,
  JSON.stringify({
    suite,
    elapsedMs: Math.round(performance.now() - started),
    exportedSpans: sdk?.exportedSpans(),
    rows,
  }),
);
await sdk?.shutdown();
