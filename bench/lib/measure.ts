import { Bench } from 'tinybench';
import type { Callable } from './floor.js';
import { type Comparison, measurePairs, type PairedResult, type PairedSettings } from './paired.js';
import { cpuNs, cpuNsPerCall, median } from './sampling.js';
import { EXPECTED_RESULT, INPUT, TOOL_CONTEXT, type WeatherInput } from './tools.js';

/** One benchmark case: a way of calling the tool, with how many calls are in flight at once. */
export interface BenchCase {
  /** Stable key of the row in the JSON report, e.g. `sdk/async/otel-sdk/x100`. */
  readonly id: string;
  /** The benchmark process (bench/suite.ts --suite) it ran in: rows are only compared within one. */
  readonly process: string;
  readonly group: 'overhead' | 'scaling' | 'capture' | 'composite' | 'signals' | 'loader' | 'peers';
  readonly world: 'no-sdk' | 'sdk';
  readonly tool: 'async' | 'sync';
  /** bare | empty-listener | otel-no-sdk | otel-sdk | floor | capture-* | composite-* | <peer>-default | <peer>-content-off */
  readonly kind: string;
  readonly label: string;
  readonly inFlight: number;
  readonly callable: Callable<WeatherInput, unknown>;
  /** The argument of every call (the capture cases pass big ones). */
  readonly input?: WeatherInput;
}

export interface Measured {
  readonly id: string;
  readonly process: string;
  readonly group: BenchCase['group'];
  readonly world: BenchCase['world'];
  readonly tool: BenchCase['tool'];
  readonly kind: string;
  readonly label: string;
  readonly inFlight: number;
  /** CPU ns per call: median over the rounds of each round's median batch. */
  readonly nsPerCall: number;
  /** The same in wall-clock time, which includes waiting for a core on a busy machine. */
  readonly wallNsPerCall: number;
  readonly callsPerBatch: number;
  /** Each round's median ns per call, in round order. */
  readonly roundsNs: number[];
  /** Batches timed, over all rounds. */
  readonly samples: number;
}

export interface MeasureSettings extends PairedSettings {
  readonly rounds: number;
  /** tinybench time budget per task and round, ms. */
  readonly timeMs: number;
  /** Minimum batches per task and round. */
  readonly minSamples: number;
  /** Warmup per task, ms, in the first round only (0: none). */
  readonly warmupMs: number;
}

export const FULL_SETTINGS: MeasureSettings = {
  rounds: 7,
  timeMs: 200,
  minSamples: 5,
  warmupMs: 150,
  // each target's comparison is measured in TARGET_PROCESSES processes (bench/run.ts): 2 s each
  pairedMs: 2000,
  minPairs: 15,
};
/** Every case a few times: proves the suite runs, measures nothing worth reading. */
export const QUICK_SETTINGS: MeasureSettings = {
  rounds: 1,
  timeMs: 0,
  minSamples: 2,
  warmupMs: 0,
  pairedMs: 0,
  minPairs: 2,
};

/** Target CPU time of one timed batch: long enough for the µs resolution of `process.cpuUsage()`. */
const BATCH_TARGET_NS = 2_000_000;

/**
 * A batch function of its own for each case, compiled from its own source text: V8 shares type
 * feedback between closures of one function literal, so a shared loop would see every case's
 * `call` and make the bare call look as slow as a megamorphic one. `batch(n)` makes `n` calls
 * (a multiple of the calls in flight) and checks every result.
 */
export function compileBatch(benchCase: BenchCase): (calls: number) => unknown {
  const tag = `/* ${benchCase.id} */`;
  const check = `if (result !== expected) throw new Error('${benchCase.id}: wrong result ' + result);`;
  let body: string;
  if (benchCase.tool === 'sync') {
    body = `return function batch(calls) { ${tag}
      for (let i = 0; i < calls; i++) { const result = tool.call(input, toolContext); ${check} }
    };`;
  } else if (benchCase.inFlight === 1) {
    body = `return async function batch(calls) { ${tag}
      for (let i = 0; i < calls; i++) { const result = await tool.call(input, toolContext); ${check} }
    };`;
  } else {
    body = `return async function batch(calls) { ${tag}
      const pending = new Array(${benchCase.inFlight});
      for (let done = 0; done < calls; done += ${benchCase.inFlight}) {
        for (let i = 0; i < ${benchCase.inFlight}; i++) pending[i] = tool.call(input, toolContext);
        const results = await Promise.all(pending);
        for (const result of results) { ${check} }
      }
    };`;
  }
  const factory = new Function('tool', 'input', 'toolContext', 'expected', body);
  return factory(benchCase.callable, benchCase.input ?? INPUT, TOOL_CONTEXT, EXPECTED_RESULT);
}

/**
 * Calls per batch so that a batch costs about BATCH_TARGET_NS, at least the calls in flight. Runs
 * trial batches for CALIBRATION_MS first, which also lets V8 optimize the path before it is timed.
 */
async function calibrate(benchCase: BenchCase, batch: (calls: number) => unknown, budgetMs: number): Promise<number> {
  const trial = Math.max(benchCase.inFlight, 100);
  let best = Number.POSITIVE_INFINITY;
  const until = performance.now() + budgetMs;
  for (let attempt = 0; attempt < 3 || performance.now() < until; attempt++) {
    best = Math.min(best, await cpuNsPerCall(batch, trial));
  }
  const calls = Math.ceil(BATCH_TARGET_NS / Math.max(best, 1) / benchCase.inFlight) * benchCase.inFlight;
  return Math.max(benchCase.inFlight, Math.min(calls, 1_000_000));
}

/** A case ready to time: its own batch function, and the calls a batch makes. */
export interface TimedCase {
  readonly benchCase: BenchCase;
  readonly batch: (calls: number) => unknown;
  readonly calls: number;
}

/**
 * Measures every case in `rounds` rounds. Each round runs all cases one after the other (starting
 * from a different case each round), each for `timeMs`; the row's figure is the median over rounds
 * of the per-round median. On a shared machine a burst of someone else's work lands in one round of
 * a few cases, and the medians step over it. Then each comparison is measured in pairs of batches
 * (bench/lib/paired.ts), with the same batch functions, so the same JIT state.
 */
export async function measure(
  cases: readonly BenchCase[],
  settings: MeasureSettings,
  progress: (message: string) => void,
  comparisons: readonly Comparison[] = [],
): Promise<{ rows: Measured[]; paired: PairedResult[] }> {
  const batches = new Map(cases.map((benchCase) => [benchCase.id, compileBatch(benchCase)]));
  const perRound = new Map<string, number[]>(cases.map((benchCase) => [benchCase.id, []]));
  const samples = new Map<string, number>(cases.map((benchCase) => [benchCase.id, 0]));
  const wallPerRound = new Map<string, number[][]>(cases.map((benchCase) => [benchCase.id, []]));
  const gc = (globalThis as { gc?: () => void }).gc;
  const callsPerBatch = new Map<string, number>();
  for (const benchCase of cases) {
    callsPerBatch.set(
      benchCase.id,
      await calibrate(benchCase, batches.get(benchCase.id) as (calls: number) => unknown, settings.warmupMs),
    );
  }

  for (let round = 0; round < settings.rounds; round++) {
    const bench = new Bench({
      time: settings.timeMs,
      iterations: settings.minSamples,
      warmup: round === 0 && settings.warmupMs > 0,
      warmupTime: settings.warmupMs,
      warmupIterations: 2,
      throws: true,
    });
    const start = round % cases.length;
    const ordered = [...cases.slice(start), ...cases.slice(0, start)];
    for (const benchCase of ordered) {
      const batch = batches.get(benchCase.id) as (calls: number) => unknown;
      const calls = callsPerBatch.get(benchCase.id) as number;
      const wall = wallPerRound.get(benchCase.id) as number[][];
      const roundWall: number[] = [];
      wall.push(roundWall);
      // Each sample is one batch, timed in CPU time: on a shared machine the wall clock also counts
      // the time this process waited for a core. tinybench records the ms per call returned here.
      const sample = (cpuBegin: number, wallBegin: number) => {
        const cpu = (cpuNs() - cpuBegin) / 1e6;
        const elapsed = performance.now() - wallBegin;
        roundWall.push((elapsed * 1e6) / calls);
        return { overriddenDuration: cpu / calls, overriddenIterationCost: elapsed };
      };
      const fn =
        benchCase.tool === 'sync'
          ? () => {
              const wallBegin = performance.now();
              const cpuBegin = cpuNs();
              batch(calls);
              return sample(cpuBegin, wallBegin);
            }
          : async () => {
              const wallBegin = performance.now();
              const cpuBegin = cpuNs();
              await batch(calls);
              return sample(cpuBegin, wallBegin);
            };
      // a collection left over from the previous case is not this case's cost
      bench.add(benchCase.id, fn, { async: benchCase.tool === 'async', beforeAll: () => gc?.() });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const { result } = task;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      perRound.get(task.name)?.push(result.latency.p50 * 1e6);
      samples.set(task.name, (samples.get(task.name) ?? 0) + task.runs);
    }
    progress(`round ${round + 1}/${settings.rounds} done`);
  }

  const timed = (id: string): TimedCase => {
    const benchCase = cases.find((candidate) => candidate.id === id);
    if (!benchCase) throw new Error(`comparison of an unknown case: ${id}`);
    return { benchCase, batch: batches.get(id) as TimedCase['batch'], calls: callsPerBatch.get(id) as number };
  };
  const paired: PairedResult[] = [];
  for (const comparison of comparisons) {
    paired.push(await measurePairs(comparison, timed(comparison.subject), timed(comparison.reference), settings));
    progress(`paired ${comparison.id} done`);
  }

  const rows = cases.map((benchCase) => {
    const roundsNs = perRound.get(benchCase.id) as number[];
    const { callable: _callable, input: _input, ...row } = benchCase;
    const wallNs = (wallPerRound.get(benchCase.id) as number[][]).map(median);
    return {
      ...row,
      nsPerCall: median(roundsNs),
      roundsNs,
      wallNsPerCall: median(wallNs),
      callsPerBatch: callsPerBatch.get(benchCase.id) as number,
      samples: samples.get(benchCase.id) ?? 0,
    };
  });
  return { rows, paired };
}
