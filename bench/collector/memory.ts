/**
 * A gateway's memory per trace awaiting its decision: one gateway with a decision wait longer than the run,
 * so that every trace sent stays in its tail sampler; traces sent in equal steps, and after each (a pause to
 * settle) the traces it holds (its own gauge), its Go heap and its resident set. The slope of a least-squares
 * line through those points is the memory per trace held.
 *
 * Twice: with Go's default GOGC (100), where the heap runs up to about twice the live data before a
 * collection, so the resident set is what an unconstrained gateway takes; and with GOGC=10, where the heap
 * stays within about 10 % of the live data, which is what the memory_limiter weighs against its limits (it
 * forces a collection, then refuses data while the live heap is over its soft limit).
 */
import { type RunningCollector, startCollector } from './collectors.js';
import { type LoadSettings, runLoad } from './load.js';
import type { OtlpSink } from './sink.js';

export interface MemorySettings {
  readonly root: string;
  readonly binary: string;
  readonly dataDir: string;
  readonly load: LoadSettings;
  /** Traces held at each point, from 0, in equal steps. */
  readonly levels: readonly number[];
  readonly spansPerSecond: number;
  readonly settleSeconds: number;
  readonly decisionWaitSeconds: number;
  readonly runMarker: Buffer;
  /** The GOGC values to run with (`default`: unset). */
  readonly gogc: readonly string[];
}

export interface MemoryPoint {
  readonly sentTraces: number;
  readonly tracesOnMemory: number;
  readonly heapBytes: number;
  readonly rssBytes: number;
}

export interface MemoryRun {
  readonly gogc: string;
  readonly points: readonly MemoryPoint[];
  readonly heapBytesPerTrace: number;
  readonly rssBytesPerTrace: number;
  /** Traces decided or dropped before their decision during the run: 0 when the wait held them all. */
  readonly decidedOrDropped: number;
}

export interface MemoryResult {
  readonly spansPerTrace: number;
  readonly decisionWaitSeconds: number;
  readonly runs: readonly MemoryRun[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The slope of the least-squares line through (x, y). */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return covariance / variance;
}

export async function measureMemory(
  sink: OtlpSink,
  settings: MemorySettings,
  log: (line: string) => void,
): Promise<MemoryResult> {
  const runs: MemoryRun[] = [];
  for (const [runIndex, gogc] of settings.gogc.entries()) {
    let gateway: RunningCollector | undefined;
    try {
      gateway = await startCollector({
        root: settings.root,
        binary: settings.binary,
        name: `memory-gateway-gogc-${gogc}`,
        role: 'gateway',
        dataDir: settings.dataDir,
        env: {
          COLLECTOR_BACKEND_OTLP_ENDPOINT: sink.httpUrl,
          COLLECTOR_DECISION_WAIT: `${settings.decisionWaitSeconds}s`,
          ...(gogc === 'default' ? {} : { GOGC: gogc }),
        },
      });
      const points: MemoryPoint[] = [];
      let sent = 0;
      for (const [levelIndex, level] of settings.levels.entries()) {
        const traces = level - sent;
        if (traces > 0) {
          log(`▶ collector: memory, GOGC ${gogc}, to ${level.toLocaleString('en-US')} traces held`);
          const spans = traces * settings.load.spansPerTrace;
          const prefix = Buffer.concat([settings.runMarker, Buffer.from([0xfe, runIndex * 16 + levelIndex])]);
          const result = await runLoad(
            `${gateway.otlpHttp}/v1/traces`,
            settings.spansPerSecond,
            spans / settings.spansPerSecond,
            prefix,
            settings.load,
          );
          if (result.acknowledged !== result.requests) {
            throw new Error(
              `the memory run's gateway acknowledged ${result.acknowledged} of ${result.requests} requests`,
            );
          }
          sent += result.traces;
        }
        await sleep(settings.settleSeconds * 1000);
        const metrics = await gateway.metrics();
        points.push({
          sentTraces: sent,
          tracesOnMemory: metrics('otelcol_processor_tail_sampling_sampling_traces_on_memory'),
          heapBytes: metrics('otelcol_process_runtime_heap_alloc_bytes'),
          rssBytes: metrics('otelcol_process_memory_rss_bytes'),
        });
      }
      const metrics = await gateway.metrics();
      runs.push({
        gogc,
        points,
        heapBytesPerTrace: slope(points.map((point) => [point.sentTraces, point.heapBytes])),
        rssBytesPerTrace: slope(points.map((point) => [point.sentTraces, point.rssBytes])),
        decidedOrDropped:
          metrics('otelcol_processor_tail_sampling_global_count_traces_sampled') +
          metrics('otelcol_processor_tail_sampling_sampling_trace_dropped_too_early'),
      });
    } finally {
      await gateway?.stop();
    }
  }
  return { spansPerTrace: settings.load.spansPerTrace, decisionWaitSeconds: settings.decisionWaitSeconds, runs };
}
