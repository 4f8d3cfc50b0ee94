import { cpuNsPerCall, median, quantile } from './sampling.js';

/** The time a comparison gets (bench/lib/measure.ts's settings have it too). */
export interface PairedSettings {
  /** Time budget of each paired comparison, ms. */
  readonly pairedMs: number;
  /** Minimum pairs of batches per comparison. */
  readonly minPairs: number;
}

/** One side of a pair: a case's batch function and the calls a batch makes (bench/lib/measure.ts's `TimedCase`). */
export interface PairedSide {
  readonly benchCase: { readonly process: string };
  readonly batch: (calls: number) => unknown;
  readonly calls: number;
}

/**
 * A target's comparison of two cases of one process, measured in pairs of batches: one batch of
 * the subject, one of the reference, again and again, for `pairedMs`.
 *
 * Why pairs: on this kind of machine (shared, two cores) the speed of a process moves between
 * levels every few seconds (a case's rounds land at about 6–8 µs or 12–15 µs a call, whatever the
 * case), so two rows' medians, taken seconds apart, can come from different levels. The two
 * batches of a pair run within a few ms of each other, at the same level: the median of the
 * per-pair ratios (and differences) compares the two cases, not the machine's two states.
 */
export interface Comparison {
  /** Key of the comparison in the JSON report, e.g. `sdk/async/otel-sdk-vs-floor/x1`. */
  readonly id: string;
  /** Id of the case judged (a row of the same process). */
  readonly subject: string;
  /** Id of the case it is judged against: the bare tool, the floor. */
  readonly reference: string;
  /**
   * A full collection before each batch (`--expose-gc`), outside the timed part: for batches long
   * enough to end with much garbage (10,000 calls in flight), which the other side's next batch
   * would otherwise pay for, a little of it in one pair and a whole major collection in another.
   */
  readonly collectBetweenBatches?: boolean;
  /** At least this many pairs, whatever `pairedMs` says: for long batches, whose pairs are few and spread wide. */
  readonly minPairs?: number;
}

export interface PairedResult extends Comparison {
  readonly process: string;
  readonly pairs: number;
  /** Median over pairs of the subject's ns per call ÷ the reference's. */
  readonly ratio: number;
  /** The ratios' first and third quartiles: how much pairs disagree. */
  readonly ratioQuartiles: readonly [number, number];
  /** Median over pairs of the subject's ns per call − the reference's. */
  readonly overNs: number;
  /** Median ns per call of each side, over its batches. */
  readonly subjectNs: number;
  readonly referenceNs: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** CPU ns per call of one batch, after a full collection when `collectFirst`. */
function timeBatch(timed: PairedSide, collectFirst: boolean): Promise<number> {
  if (collectFirst) gc?.();
  return cpuNsPerCall(timed.batch, timed.calls);
}

/**
 * Pairs of batches, alternating which side runs first (so that neither always pays for the
 * garbage the other left), until `settings.pairedMs` have passed and at least `settings.minPairs`
 * pairs (or the comparison's own `minPairs`, except in quick mode, where `pairedMs` is 0) are timed.
 */
export async function measurePairs(
  comparison: Comparison,
  subject: PairedSide,
  reference: PairedSide,
  settings: PairedSettings,
): Promise<PairedResult> {
  if (subject.benchCase.process !== reference.benchCase.process) {
    throw new Error(`${comparison.id}: a comparison takes two cases of one process`);
  }
  const collect = comparison.collectBetweenBatches === true;
  const subjectNs: number[] = [];
  const referenceNs: number[] = [];
  const until = performance.now() + settings.pairedMs;
  const minPairs = Math.max(settings.minPairs, settings.pairedMs > 0 ? (comparison.minPairs ?? 0) : 0);
  for (let pair = 0; pair < minPairs || performance.now() < until; pair++) {
    if (pair % 2 === 0) {
      subjectNs.push(await timeBatch(subject, collect));
      referenceNs.push(await timeBatch(reference, collect));
    } else {
      referenceNs.push(await timeBatch(reference, collect));
      subjectNs.push(await timeBatch(subject, collect));
    }
  }
  const ratios = subjectNs.map((ns, pair) => ns / (referenceNs[pair] as number));
  const differences = subjectNs.map((ns, pair) => ns - (referenceNs[pair] as number));
  return {
    ...comparison,
    process: subject.benchCase.process,
    pairs: ratios.length,
    ratio: median(ratios),
    ratioQuartiles: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    overNs: median(differences),
    subjectNs: median(subjectNs),
    referenceNs: median(referenceNs),
  };
}

/**
 * One comparison as each of several processes measured it (`processes[k]` is what process `k`
 * returned), in process order: what a target's band is made of (bench/lib/band.ts). Two processes
 * running the same code differ by 2–3 % on this machine (code placement, JIT decisions, the machine's
 * state while each ran), more than one process's median of a thousand pairs moves: the process, not
 * the pair, is the unit a target is judged on.
 */
export function acrossProcesses(processes: readonly (readonly PairedResult[])[], id: string): PairedResult[] {
  return processes.map((results, k) => {
    const found = results.find((result) => result.id === id);
    if (found === undefined) throw new Error(`process ${k} has no paired comparison ${id}`);
    return found;
  });
}
