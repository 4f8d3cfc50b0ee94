import { PerformanceObserver } from 'node:perf_hooks';
import { type BenchCase, compileBatch } from './measure.js';
import { median } from './sampling.js';

/**
 * Bytes allocated per call, for the cases with one call in flight.
 *
 * Node 20 has no allocation counter (`v8.getHeapStatistics()` has no `total_allocated_bytes`), but the
 * heap's used size only ever drops when a collection runs. So: the process runs with a young
 * generation large enough for a whole window (`--min-semi-space-size=64 --max-semi-space-size=64`,
 * set by bench/run.ts), each window starts right after two forced full GCs, and a
 * PerformanceObserver('gc') counts the collections of the window. In a window without any
 * collection, the growth of `heapUsed` is exactly what the calls allocated (young and old space,
 * large objects too); a window in which a collection ran anyway is discarded, not corrected.
 * Everything the calls allocate is counted, the loop's own `await` included: the bare tool's row
 * shows that share, and "over bare" is what the wrapper adds.
 */
export interface AllocationRow {
  readonly id: string;
  readonly process: string;
  readonly kind: string;
  readonly label: string;
  readonly tool: BenchCase['tool'];
  /** Median over the windows without a collection. */
  readonly bytesPerCall: number;
  readonly callsPerWindow: number;
  /** Bytes per call of each window kept, in order. */
  readonly windows: number[];
  /** Windows thrown away because a collection ran during them. */
  readonly discarded: number;
}

export interface AllocationSettings {
  readonly warmupCalls: number;
  readonly callsPerWindow: number;
  readonly windows: number;
}

export const FULL_ALLOCATION: AllocationSettings = { warmupCalls: 20_000, callsPerWindow: 2_000, windows: 7 };
export const QUICK_ALLOCATION: AllocationSettings = { warmupCalls: 200, callsPerWindow: 200, windows: 2 };

/** Lets pending GC performance entries reach the observer (they are delivered asynchronously). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

export async function measureAllocation(
  cases: readonly BenchCase[],
  settings: AllocationSettings,
  progress: (message: string) => void,
): Promise<AllocationRow[]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the allocation mode needs node --expose-gc');
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  const rows: AllocationRow[] = [];
  try {
    for (const benchCase of cases) {
      const batch = compileBatch(benchCase);
      // the optimized code is what is measured: it may allocate less than the first calls do
      await batch(settings.warmupCalls);
      const windows: number[] = [];
      let discarded = 0;
      for (let attempt = 0; windows.length < settings.windows && attempt < settings.windows * 3; attempt++) {
        gc();
        gc();
        await settle();
        const collectionsBefore = collections;
        const before = process.memoryUsage().heapUsed;
        await batch(settings.callsPerWindow);
        const after = process.memoryUsage().heapUsed;
        await settle();
        if (collections === collectionsBefore) windows.push((after - before) / settings.callsPerWindow);
        else discarded++;
      }
      rows.push({
        id: benchCase.id,
        process: benchCase.process,
        kind: benchCase.kind,
        label: benchCase.label,
        tool: benchCase.tool,
        bytesPerCall: median(windows),
        callsPerWindow: settings.callsPerWindow,
        windows,
        discarded,
      });
    }
  } finally {
    observer.disconnect();
  }
  progress(`allocation: ${rows.length} cases`);
  return rows;
}
