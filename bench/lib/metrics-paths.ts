import { band } from './band.js';
import { median } from './sampling.js';
import type { StartupCase, StartupRow, StartupRun, StartupRuntime } from './startup.js';

/**
 * The metrics paths group (`npm run bench -- --only metrics-paths`): what pushing the tool metrics over
 * OTLP costs an app against serving them at `/metrics` for a scraper, per call and at start, as ratios
 * push ÷ pull measured in one run. Per call, bench/metrics-paths.ts (and its peer process, the receiver
 * and the scraper); at start, the startup group's machinery (bench/lib/startup.ts) with the cases below.
 */

/** The ways the tool metrics leave the app, each built as the package builds it. */
export const METRICS_PATHS = [
  {
    id: 'pull',
    label: "/metrics served, scraped (setup's default; register's OTEL_METRICS_EXPORTER=prometheus)",
  },
  {
    id: 'push-protobuf',
    label: "OTLP/HTTP protobuf pushed (register's default, OTEL_METRICS_EXPORTER=otlp)",
  },
  { id: 'push-json', label: "OTLP/HTTP JSON pushed (setup's metrics: 'otlp')" },
] as const;
export type MetricsPathId = (typeof METRICS_PATHS)[number]['id'];
/** The path the pushes are compared with. */
export const PULL: MetricsPathId = 'pull';
export const PUSHES: readonly MetricsPathId[] = ['push-protobuf', 'push-json'];

/** The tools' variety: this many tools called in turn, one call in `FAILING_ONE_IN` failing (three error types). */
export const TOOL_COUNT = 12;
export const FAILING_ONE_IN = 20;

/** One process's timed batches (bench/metrics-paths.ts `--mode time`): per path, one entry per round, in round order. */
export interface MetricsPathsTimed {
  readonly mode: 'time';
  readonly callsPerBatch: number;
  readonly warmupBatches: number;
  readonly batches: Record<MetricsPathId, { callsNs: number[]; exportNs: number[]; payloadBytes: number[] }>;
}

/**
 * One process's allocation windows (`--mode allocation`): per path, bytes per call of windows of calls,
 * and bytes of windows of one export (or scrape) each, each window without a collection in it.
 */
export interface MetricsPathsAllocated {
  readonly mode: 'allocation';
  readonly callsPerWindow: number;
  readonly paths: Record<MetricsPathId, { callWindows: number[]; exportWindows: number[]; discarded: number }>;
}

/** A median with its 95 % interval (bench/lib/band.ts's, no limit: these are reported, not judged). */
export interface Interval {
  readonly median: number;
  readonly low: number;
  readonly high: number;
  readonly samples: number;
}

export function interval(values: readonly number[]): Interval {
  const { verdict: _verdict, ...measured } = band(values, Number.POSITIVE_INFINITY);
  return measured;
}

export interface MetricsPathRow {
  readonly id: MetricsPathId;
  readonly label: string;
  /** CPU ns per call, its batch's export included: median over the batches of every process. */
  readonly nsPerCall: number;
  /** The calls alone (the same recording on every path). */
  readonly callsNsPerCall: number;
  /** CPU ns of one export (push) or of serving one scrape (pull): what the app pays each interval. */
  readonly exportNs: number;
  /** `exportNs` over the calls of a batch: the export's share of each call. */
  readonly exportShareNs: number;
  /** Bytes that crossed the loopback per export or scrape. */
  readonly payloadBytes: number;
  /** Bytes allocated per call, the export's share (bytes of one ÷ the calls of a batch) included. */
  readonly bytesPerCall: number;
  readonly bytesPerExport: number;
}

/** A push path against pull, per call (per round of each process, pooled) and per export. */
export interface MetricsPathComparison {
  readonly id: string;
  readonly subject: MetricsPathId;
  readonly reference: MetricsPathId;
  /** Per call, the export included: subject ÷ reference of each round's batches. */
  readonly perCall: Interval;
  readonly perCallRatios: number[];
  /** ns per call subject − reference, median over rounds. */
  readonly overNs: number;
  /** One export against one scrape served. */
  readonly perExport: Interval;
  readonly perExportRatios: number[];
  /** Bytes allocated per call, subject ÷ reference (medians). */
  readonly bytesPerCall: number;
}

/** Push against pull at start: the whole process's CPU and peak RSS, per round. */
export interface MetricsPathStartComparison {
  readonly id: string;
  readonly subject: string;
  readonly reference: string;
  readonly cpu: Interval;
  readonly rss: Interval;
  readonly cpuRatios: number[];
  readonly rssRatios: number[];
}

export interface MetricsPathsResult {
  readonly perCall: {
    readonly processes: number;
    readonly roundsPerProcess: number;
    readonly callsPerBatch: number;
    readonly tools: number;
    readonly failingOneIn: number;
    readonly callsPerAllocationWindow: number;
    readonly paths: MetricsPathRow[];
    readonly comparisons: MetricsPathComparison[];
    /** What the rows were made of: each process's batches, and the allocation windows. */
    readonly batchesByProcess: MetricsPathsTimed['batches'][];
    readonly allocationWindows: MetricsPathsAllocated['paths'];
  };
  readonly atStart: {
    readonly runtime: StartupRuntime;
    readonly rounds: number;
    readonly rows: StartupRow[];
    readonly comparisons: MetricsPathStartComparison[];
  };
}

/**
 * The start cases: the app bare, under setup and under register, each with metrics pushed over OTLP and
 * served at `/metrics` (on 127.0.0.1:`prometheusPort`, a port free when the group starts). Traces go
 * over OTLP in all four; a push case must push the tool's duration histogram, a pull case must not.
 */
export function metricsPathStartupCases(prometheusPort: number): StartupCase[] {
  const served = { OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(prometheusPort) };
  return [
    { id: 'bare', label: 'the app alone', args: (files) => [files.bare], observes: false },
    {
      id: 'setup-otlp',
      label: "startToolCallTelemetry({ metrics: 'otlp' }) + wrapTools",
      args: (files) => [files.setup, 'otlp'],
      observes: true,
      metrics: 'push',
    },
    {
      id: 'setup-prometheus',
      label: "startToolCallTelemetry({ metrics: 'prometheus' }) + wrapTools (the default)",
      args: (files) => [files.setup, 'prometheus'],
      observes: true,
      metrics: 'pull',
      env: served,
    },
    {
      id: 'register-otlp',
      label: 'node --import otel-tool-calls/register, OTEL_METRICS_EXPORTER=otlp (the default)',
      args: (files) => ['--import', files.register, files.bare],
      observes: true,
      metrics: 'push',
      env: { OTEL_METRICS_EXPORTER: 'otlp' },
    },
    {
      id: 'register-prometheus',
      label: 'node --import otel-tool-calls/register, OTEL_METRICS_EXPORTER=prometheus',
      args: (files) => ['--import', files.register, files.bare],
      observes: true,
      metrics: 'pull',
      env: { OTEL_METRICS_EXPORTER: 'prometheus', ...served },
    },
  ];
}

/** The start comparisons: each way of starting, push ÷ pull. */
const START_COMPARISONS = [
  { id: 'setup-otlp-vs-prometheus', subject: 'setup-otlp', reference: 'setup-prometheus' },
  { id: 'register-otlp-vs-prometheus', subject: 'register-otlp', reference: 'register-prometheus' },
] as const;

/** The group's figures from its processes' outputs and its start rounds (one runtime: this Node). */
export function summarizeMetricsPaths(
  timed: readonly MetricsPathsTimed[],
  allocated: MetricsPathsAllocated,
  atStart: { readonly runtime: StartupRuntime; readonly rounds: number; readonly rows: StartupRow[] },
): MetricsPathsResult {
  const first = timed[0];
  if (first === undefined) throw new Error('summarizeMetricsPaths: no timed process');
  const calls = first.callsPerBatch;
  const batchesOf = (id: MetricsPathId) => timed.map((process) => process.batches[id]);
  /** Per round of every process, in process order: CPU ns per call of the batch, its export included. */
  const perCall = (id: MetricsPathId) =>
    batchesOf(id).flatMap(({ callsNs, exportNs }) =>
      callsNs.map((ns, round) => (ns + (exportNs[round] as number)) / calls),
    );
  const exports = (id: MetricsPathId) => batchesOf(id).flatMap(({ exportNs }) => exportNs);
  const allocation = (id: MetricsPathId) => {
    const { callWindows, exportWindows } = allocated.paths[id];
    const perExport = median(exportWindows);
    return { perExport, perCall: median(callWindows) + perExport / calls };
  };
  const paths = METRICS_PATHS.map(({ id, label }): MetricsPathRow => {
    const exportNs = median(exports(id));
    const bytes = allocation(id);
    return {
      id,
      label,
      nsPerCall: median(perCall(id)),
      callsNsPerCall: median(batchesOf(id).flatMap(({ callsNs }) => callsNs.map((ns) => ns / calls))),
      exportNs,
      exportShareNs: exportNs / calls,
      payloadBytes: median(batchesOf(id).flatMap(({ payloadBytes }) => payloadBytes)),
      bytesPerCall: bytes.perCall,
      bytesPerExport: bytes.perExport,
    };
  });
  const comparisons = PUSHES.map((subject): MetricsPathComparison => {
    const pushed = perCall(subject);
    const pulled = perCall(PULL);
    const perCallRatios = pushed.map((ns, k) => ns / (pulled[k] as number));
    const pulledExports = exports(PULL);
    const perExportRatios = exports(subject).map((ns, k) => ns / (pulledExports[k] as number));
    return {
      id: `${subject}-vs-${PULL}`,
      subject,
      reference: PULL,
      perCall: interval(perCallRatios),
      perCallRatios,
      overNs: median(pushed.map((ns, k) => ns - (pulled[k] as number))),
      perExport: interval(perExportRatios),
      perExportRatios,
      bytesPerCall: allocation(subject).perCall / allocation(PULL).perCall,
    };
  });
  const row = (id: string) => {
    const found = atStart.rows.find((candidate) => candidate.id === id);
    if (found === undefined) throw new Error(`no metrics paths start row ${id}`);
    return found;
  };
  const startComparisons = START_COMPARISONS.map(({ id, subject, reference }): MetricsPathStartComparison => {
    const against = row(reference).runs;
    const ratios = (pick: (run: StartupRun) => number) =>
      row(subject).runs.map((run, round) => pick(run) / pick(against[round] as StartupRun));
    const cpuRatios = ratios((run) => run.cpuMs);
    const rssRatios = ratios((run) => run.peakRssMb);
    return { id, subject, reference, cpu: interval(cpuRatios), rss: interval(rssRatios), cpuRatios, rssRatios };
  });
  return {
    perCall: {
      processes: timed.length,
      roundsPerProcess: first.batches[PULL].callsNs.length,
      callsPerBatch: calls,
      tools: TOOL_COUNT,
      failingOneIn: FAILING_ONE_IN,
      callsPerAllocationWindow: allocated.callsPerWindow,
      paths,
      comparisons,
      batchesByProcess: timed.map((process) => process.batches),
      allocationWindows: allocated.paths,
    },
    atStart: { ...atStart, comparisons: startComparisons },
  };
}
