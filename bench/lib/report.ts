import type { AllocationRow } from './allocation.js';
import { type Band, band, type Verdict } from './band.js';
import type { Measured } from './measure.js';
import { acrossProcesses, type PairedResult } from './paired.js';
import type { PeersStatus } from './peers.js';
import type { StartupResult, StartupRun } from './startup.js';

/** A measured row with its comparisons, as printed and as written to the JSON report. */
export interface ReportRow extends Measured {
  /** × the bare tool of the same process, tool kind and calls in flight. */
  readonly vsBare: number;
  /** ns per call over that bare tool. */
  readonly overBareNs: number;
  /** × the hand-written floor of the same process, tool kind and calls in flight (the processes with a floor: sdk, peers). */
  readonly vsFloor: number | null;
}

export interface MemoryResult {
  readonly calls: number;
  readonly inFlight: number;
  readonly elapsedMs: number;
  readonly nsPerCall: number;
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
  readonly heapGrowthBytes: number;
  readonly heapSamples: { calls: number; heapUsed: number }[];
  readonly peakRssBytes: number;
  readonly caller: {
    rejected: number;
    wrongResults: number;
    unhandledRejections: number;
    uncaughtExceptions: number;
    firstError: string;
  };
  readonly diagLogged: { error: number; warn: number };
  readonly shutdown: string;
  readonly shutdownMs: number;
}

/** bench/shared-times.ts: one call's span duration against its histogram sample, async and sync tool. */
export interface SharedTimesResult {
  readonly toleranceNs: number;
  readonly checks: {
    tool: 'async' | 'sync';
    spanDurationNs: number;
    histogramSumNs: number;
    differenceNs: number;
    met: boolean;
  }[];
}

/** An allocation row with what it adds over the bare tool of its process. */
export interface AllocationReportRow extends AllocationRow {
  readonly overBareBytes: number;
}

export interface Target {
  readonly id: string;
  readonly description: string;
  readonly limit: number;
  readonly value: number;
  readonly unit: 'x' | 'ns' | 'MB' | 'errors';
  readonly met: boolean;
  /**
   * The pooled targets (bench/lib/band.ts): the 95 % interval of the median and the verdict, `EDGE`
   * when the limit is inside it. The others: `met` or `MISSED` on the value alone.
   */
  readonly verdict: Verdict;
  readonly band?: Omit<Band, 'verdict'>;
  /** What each of the band's values is: one process's median, one round's ratio, one pair's. */
  readonly pooledOver?: 'processes' | 'rounds' | 'pairs';
  /** The values the band was made of. */
  readonly pooled?: number[];
}

const GROUP_ORDER = ['overhead', 'scaling', 'capture', 'composite', 'peers', 'loader'];
const PROCESS_ORDER = ['no-sdk', 'sdk', 'capture', 'peers', 'loader-tsx', 'loader-compiled'];

/** Ratios only compare rows of one process (its world registered once, its own GC and JIT). */
export function compare(measured: readonly Measured[]): ReportRow[] {
  const find = (row: Measured, kind: string) =>
    measured.find(
      (other) =>
        other.process === row.process &&
        other.tool === row.tool &&
        other.inFlight === row.inFlight &&
        other.kind === kind,
    );
  const rows = measured.map((row) => {
    const bare = find(row, 'bare');
    const floor = find(row, 'floor');
    return {
      ...row,
      vsBare: bare ? row.nsPerCall / bare.nsPerCall : Number.NaN,
      overBareNs: bare ? row.nsPerCall - bare.nsPerCall : Number.NaN,
      vsFloor: floor ? row.nsPerCall / floor.nsPerCall : null,
    };
  });
  const rank = (row: ReportRow) =>
    GROUP_ORDER.indexOf(row.group) * 1e9 +
    PROCESS_ORDER.indexOf(row.process) * 1e8 +
    (row.tool === 'sync' ? 0 : 1) * 1e7 +
    row.inFlight;
  // a stable sort: within a group, world and tool, the cases keep the order they were defined in
  return rows.sort((a, b) => rank(a) - rank(b));
}

const MB = 1024 * 1024;

/**
 * The targets of the benchmark issues (issue 15 and before), each with the measured value it is
 * judged on. The timed ones are judged on paired comparisons (bench/lib/paired.ts), not on the
 * table's rows: two rows' medians are taken seconds apart, and this machine changes speed between.
 * Each comparison is measured in several processes (`processes`, one list per process): a timed
 * target is judged by the band rule (bench/lib/band.ts) on the per-process medians, so that a
 * process that happened to run fast or slow does not decide it.
 */
export function evaluateTargets(
  processes: readonly (readonly PairedResult[])[],
  memory: MemoryResult,
  sharedTimes: SharedTimesResult,
): Target[] {
  const target = (t: Omit<Target, 'met' | 'verdict'>): Target => {
    const met = t.value <= t.limit;
    return { ...t, met, verdict: met ? 'met' : 'MISSED' };
  };
  const ratios = (id: string) => acrossProcesses(processes, id).map((result) => result.ratio);
  const overNs = (id: string) => acrossProcesses(processes, id).map((result) => result.overNs);
  // the worse of the two shapes, in each process
  const stringShape = ratios('capture/async/capture-10mb-string-vs-capture-cap-string/x1');
  const captureVsCap = ratios('capture/async/capture-10mb-records-vs-capture-cap-records/x1').map((records, k) =>
    Math.max(records, stringShape[k] as number),
  );
  const callerErrors =
    memory.caller.rejected +
    memory.caller.wrongResults +
    memory.caller.unhandledRejections +
    memory.caller.uncaughtExceptions;
  const perProcess = (id: string, description: string, limit: number, values: readonly number[], unit: 'x' | 'ns') =>
    pooledTarget(id, description, limit, values, unit, 'processes');
  return [
    perProcess(
      'no-sdk-async',
      'OpenTelemetry listener with no SDK adds ≤ 100 ns per call over bare (async tool)',
      100,
      overNs('no-sdk/async/otel-no-sdk-vs-bare/x1'),
      'ns',
    ),
    perProcess(
      'no-sdk-sync',
      'OpenTelemetry listener with no SDK adds ≤ 100 ns per call over bare (sync tool)',
      100,
      overNs('no-sdk/sync/otel-no-sdk-vs-bare/x1'),
      'ns',
    ),
    perProcess(
      'sdk-vs-floor-async',
      'OpenTelemetry listener on the real SDK ≤ 1.00 × the floor (async tool)',
      1,
      ratios('sdk/async/otel-sdk-vs-floor/x1'),
      'x',
    ),
    perProcess(
      'sdk-vs-floor-sync',
      'OpenTelemetry listener on the real SDK ≤ 1.00 × the floor (sync tool)',
      1,
      ratios('sdk/sync/otel-sdk-vs-floor/x1'),
      'x',
    ),
    perProcess(
      'sdk-vs-floor-async-10000',
      'the same with 10,000 calls in flight ≤ 1.05 × the floor',
      1.05,
      ratios('sdk/async/otel-sdk-vs-floor/x10000'),
      'x',
    ),
    target({
      id: 'span-histogram-shared-times',
      description: `span duration = histogram sample (same start and end readings), async and sync tool, within ${sharedTimes.toleranceNs} ns`,
      limit: sharedTimes.toleranceNs,
      value: Math.max(...sharedTimes.checks.map((check) => check.differenceNs)),
      unit: 'ns',
    }),
    perProcess(
      'empty-listener-async',
      'wrap(tool, {}) adds ≤ 150 ns per async call over bare (no SDK)',
      150,
      overNs('no-sdk/async/empty-listener-vs-bare/x1'),
      'ns',
    ),
    perProcess(
      'capture-10mb-vs-cap',
      'content capture of a 10 MB argument ≤ 2 × one that just fills the 4,096-character cap (5 KB, same shape; the worse of the two shapes)',
      2,
      captureVsCap,
      'x',
    ),
    target({
      id: 'memory-heap-growth',
      description: `${memory.calls.toLocaleString('en-US')} calls, OTLP exporter down: retained heap growth ≤ 32 MB`,
      limit: 32,
      value: memory.heapGrowthBytes / MB,
      unit: 'MB',
    }),
    target({
      id: 'memory-no-caller-error',
      description: `${memory.calls.toLocaleString('en-US')} calls, OTLP exporter down: no error reaches the caller`,
      limit: 0,
      value: callerErrors,
      unit: 'errors',
    }),
  ];
}

/** A target judged on pooled values by the band rule (bench/lib/band.ts): one per process, round or pair. */
function pooledTarget(
  id: string,
  description: string,
  limit: number,
  values: readonly number[],
  unit: 'x' | 'ns' = 'x',
  of: Target['pooledOver'] = 'pairs',
): Target {
  const { verdict, ...measured } = band(values, limit);
  return {
    id,
    description,
    limit,
    value: measured.median,
    unit,
    met: verdict === 'met',
    verdict,
    band: measured,
    pooledOver: of,
    pooled: [...values],
  };
}

/**
 * The startup targets, on each runtime's per-round ratios, pooled: issue 29's two against the bare
 * app, and two against the floor (the least a hand-picked preload doing the same costs on that
 * runtime, so what register's own handling adds: the variables, resource detection, the logs SDK's
 * wiring, giving way to an app's own SDK, the flush at exit).
 */
export function evaluateStartupTargets(startup: StartupResult): Target[] {
  return startup.runtimes.flatMap(({ runtime, rows }) => {
    const row = (id: string) => {
      const found = rows.find((candidate) => candidate.id === id);
      if (!found) throw new Error(`no startup row ${id}`);
      return found;
    };
    const register = row('register');
    const floor = row('floor');
    const perRound = (pick: (run: StartupRun) => number) =>
      register.runs.map((run, round) => pick(run) / pick(floor.runs[round] as StartupRun));
    const on = `Node ${runtime.version}`;
    return [
      pooledTarget(
        `startup-register-cpu-${runtime.id}`,
        `${on}: app under otel-tool-calls/register ≤ 1.40 × the bare app's CPU (whole process, per round)`,
        1.4,
        register.cpuRatios,
        'x',
        'rounds',
      ),
      pooledTarget(
        `startup-register-rss-${runtime.id}`,
        `${on}: app under otel-tool-calls/register ≤ 1.05 × the bare app's peak RSS (per round)`,
        1.05,
        register.rssRatios,
        'x',
        'rounds',
      ),
      pooledTarget(
        `startup-register-vs-floor-cpu-${runtime.id}`,
        `${on}: app under otel-tool-calls/register ≤ 1.05 × the app under the floor's preload, CPU (per round)`,
        1.05,
        perRound((run) => run.cpuMs),
        'x',
        'rounds',
      ),
      pooledTarget(
        `startup-register-vs-floor-rss-${runtime.id}`,
        `${on}: app under otel-tool-calls/register ≤ 1.05 × the app under the floor's preload, peak RSS (per round)`,
        1.05,
        perRound((run) => run.peakRssMb),
        'x',
        'rounds',
      ),
    ];
  });
}

/** bench/in-flight.ts: bytes each call in flight keeps alive, the listener against the floor. */
export interface InFlightResult {
  readonly inFlight: number;
  readonly pairs: number;
  readonly listenerBytesPerCall: number;
  readonly floorBytesPerCall: number;
  readonly ratios: number[];
}

/**
 * bench/mcp-round-trip.ts: CPU (client + server) per stdio round trip, observed against a bare
 * client and server with the same SDK registered (`sdkNs`, `ratios`: this package alone) and
 * against a bare server with no SDK (`noSdkNs`, `noSdkRatios`: tracing at all).
 */
export interface McpRoundTripResult {
  readonly pairs: number;
  readonly callsPerBatch: number;
  readonly noSdkNs: number;
  readonly sdkNs: number;
  readonly observedNs: number;
  readonly ratios: number[];
  readonly noSdkRatios: number[];
}

/**
 * The MCP target (issue 25): observed client and server ≤ 1.05 × the bare round trip with the same
 * SDK registered on both sides, pooled: the cost of this package, not of the SDK.
 */
export function evaluateMcpTarget(result: McpRoundTripResult): Target {
  return pooledTarget(
    'mcp-stdio-round-trip',
    'MCP tools/call over stdio, client and server observed ≤ 1.05 × the bare round trip with the same SDK registered (CPU of both processes)',
    1.05,
    result.ratios,
  );
}

export function formatInFlight(result: InFlightResult): string {
  const measured = band(result.ratios, 1);
  return (
    `Memory per call in flight (${result.inFlight.toLocaleString('en-US')} async calls in flight, real SDK, heap after full collections, ${result.pairs} pairs): ` +
    `listener ${Math.round(result.listenerBytesPerCall).toLocaleString('en-US')} B, floor ${Math.round(result.floorBytesPerCall).toLocaleString('en-US')} B; ` +
    `× floor ${measured.median.toFixed(2)} (95 % interval ${measured.low.toFixed(2)}–${measured.high.toFixed(2)})`
  );
}

export function formatMcpRoundTrip(result: McpRoundTripResult): string {
  const alone = band(result.ratios, 1.05);
  const atAll = band(result.noSdkRatios, 1.05);
  const interval = (b: Band) => `${b.median.toFixed(2)} (95 % interval ${b.low.toFixed(2)}–${b.high.toFixed(2)})`;
  return [
    `MCP tools/call round trip over stdio (CPU of client + server per call, ${result.pairs} triples of ${result.callsPerBatch} calls):`,
    `  bare server, no SDK in it        ${ns(result.noSdkNs)}`,
    `  bare client and server, SDK      ${ns(result.sdkNs)}`,
    `  client and server observed       ${ns(result.observedNs)}`,
    `  observed × bare with the SDK (this package alone): ${interval(alone)}`,
    `  observed × bare server without the SDK (tracing at all): ${interval(atAll)}`,
  ].join('\n');
}

/**
 * The startup group as markdown tables: this Node's in full, then each other runtime's ratios side
 * by side (× bare, CPU / peak RSS).
 */
export function formatStartup(startup: StartupResult): string {
  const [first, ...others] = startup.runtimes;
  if (!first) return 'Startup: no runtime measured';
  const header = ['case', 'what runs', 'CPU (median)', '× bare', 'peak RSS (median)', '× bare'];
  const lines = first.rows.map((row) => [
    row.id,
    row.label,
    `${Math.round(row.cpuMs)} ms`,
    times(row.cpuVsBare),
    `${row.peakRssMb.toFixed(1)} MB`,
    times(row.rssVsBare),
  ]);
  const sections = [
    `Startup on Node ${first.runtime.version} (whole process, /usr/bin/time, ${startup.rounds} rounds of every case in rotating order; × bare: median of the per-round ratios)`,
    markdownTable(header, lines, new Set([2, 3, 4, 5])),
  ];
  if (others.length > 0) {
    const byRuntime = others.map(({ rows }) => new Map(rows.map((row) => [row.id, row])));
    const otherLines = first.rows.map((row) => [
      row.id,
      ...byRuntime.map((rows) => {
        const other = rows.get(row.id);
        return other
          ? `${Math.round(other.cpuMs)} ms ${times(other.cpuVsBare)} / ${other.peakRssMb.toFixed(1)} MB ${times(other.rssVsBare)}`
          : '–';
      }),
    ]);
    sections.push(
      `\nStartup on the other runtimes (${startup.rounds} rounds each; CPU × bare / peak RSS × bare, medians)`,
      markdownTable(
        ['case', ...others.map(({ runtime }) => `Node ${runtime.version}`)],
        otherLines,
        new Set(others.map((_, k) => k + 1)),
      ),
    );
  }
  return sections.join('\n');
}

function ns(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} µs` : `${Math.round(value)} ns`;
}

function times(value: number | null): string {
  return value === null || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}×`;
}

function signedNs(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return `${value >= 0 ? '+' : '−'}${ns(Math.abs(value))}`;
}

/** A markdown table; the `numeric` columns are right-aligned. */
function markdownTable(header: readonly string[], lines: readonly string[][], numeric: ReadonlySet<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] as string).length)));
  const format = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [format(header), rule, ...lines.map(format)].join('\n');
}

/** The results as one markdown table (printed, and pasted into BENCHMARKS.md). */
export function formatTable(rows: readonly ReportRow[]): string {
  const header = [
    'group',
    'process',
    'case',
    'tool',
    'in flight',
    'CPU/call',
    '× bare',
    'over bare',
    '× floor',
    'wall/call',
  ];
  const lines = rows.map((r) => [
    r.group,
    r.process,
    r.label,
    r.tool,
    r.inFlight.toLocaleString('en-US'),
    ns(r.nsPerCall),
    r.kind === 'bare' ? '1.00×' : times(r.vsBare),
    r.kind === 'bare' ? '' : signedNs(r.overBareNs),
    times(r.vsFloor),
    ns(r.wallNsPerCall),
  ]);
  return markdownTable(header, lines, new Set([4, 5, 6, 7, 8, 9]));
}

/** Each allocation row with what it allocates over the bare tool of the same process and tool kind. */
export function compareAllocations(rows: readonly AllocationRow[]): AllocationReportRow[] {
  return rows.map((allocation) => {
    const bare = rows.find(
      (other) => other.process === allocation.process && other.tool === allocation.tool && other.kind === 'bare',
    );
    return { ...allocation, overBareBytes: bare ? allocation.bytesPerCall - bare.bytesPerCall : Number.NaN };
  });
}

function bytes(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return `${Math.round(value).toLocaleString('en-US')} B`;
}

export function formatAllocations(rows: readonly AllocationReportRow[]): string {
  const header = ['process', 'case', 'tool', 'bytes/call', 'over bare', 'windows (kept / discarded)'];
  const lines = rows.map((r) => [
    r.process,
    r.label,
    r.tool,
    bytes(r.bytesPerCall),
    r.kind === 'bare' ? '' : `${r.overBareBytes >= 0 ? '+' : '−'}${bytes(Math.abs(r.overBareBytes))}`,
    `${r.windows.length} / ${r.discarded} of ${r.callsPerWindow.toLocaleString('en-US')} calls`,
  ]);
  return markdownTable(header, lines, new Set([3, 4]));
}

export function formatPeers(status: PeersStatus, spansByScope: Record<string, number> | undefined): string {
  if (status.status === 'skipped') return `Peers: SKIPPED (${status.reason})`;
  const versions = Object.entries(status.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  const spans = Object.entries(spansByScope ?? {})
    .map(([scope, count]) => `${scope} ${count.toLocaleString('en-US')}`)
    .join(', ');
  return `Peers (bench/peers, one @opentelemetry/api with the SDK): ${versions}\n  spans exported by scope in the peers process: ${spans || 'none'}`;
}

export function formatSharedTimes(result: SharedTimesResult): string {
  return [
    'Span and histogram share start and end times (one call each, real SDK, in-memory exporters):',
    ...result.checks.map(
      (check) =>
        `  ${check.tool}: span ${check.spanDurationNs} ns, histogram sample ${check.histogramSumNs.toFixed(3)} ns, ` +
        `difference ${check.differenceNs.toFixed(3)} ns (≤ ${result.toleranceNs} ns: ${check.met ? 'met' : 'MISSED'})`,
    ),
  ].join('\n');
}

export function formatMemory(memory: MemoryResult): string {
  const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  const { caller } = memory;
  return [
    `Exporter down: ${memory.calls.toLocaleString('en-US')} calls (${memory.inFlight} in flight) through the ` +
      `OpenTelemetry listener on startToolCallTelemetry(), OTLP/HTTP to a closed port, in ${(memory.elapsedMs / 1000).toFixed(1)} s`,
    `  heap after forced GC: ${mb(memory.heapBeforeBytes)} before, ${mb(memory.heapAfterBytes)} after ` +
      `(${memory.heapGrowthBytes >= 0 ? '+' : '−'}${mb(Math.abs(memory.heapGrowthBytes))}); ` +
      `largest sample during the run ${mb(Math.max(...memory.heapSamples.map((s) => s.heapUsed)))}; peak RSS ${mb(memory.peakRssBytes)}`,
    `  caller saw: ${caller.rejected} rejections, ${caller.wrongResults} wrong results, ` +
      `${caller.unhandledRejections} unhandled rejections, ${caller.uncaughtExceptions} uncaught exceptions; ` +
      `the SDK logged ${memory.diagLogged.error} errors and ${memory.diagLogged.warn} warnings through diag; ` +
      `shutdown ${memory.shutdown} in ${(memory.shutdownMs / 1000).toFixed(1)} s`,
  ].join('\n');
}

/** The paired comparisons the targets are judged on, as a markdown table. */
export function formatPaired(paired: readonly PairedResult[]): string {
  const header = [
    'comparison (subject vs reference)',
    'pairs',
    '× (median)',
    'quartiles',
    'over (median)',
    'subject',
    'reference',
  ];
  const lines = paired.map((p) => [
    p.id,
    String(p.pairs),
    times(p.ratio),
    `${times(p.ratioQuartiles[0])} – ${times(p.ratioQuartiles[1])}`,
    signedNs(p.overNs),
    ns(p.subjectNs),
    ns(p.referenceNs),
  ]);
  const table = markdownTable(header, lines, new Set([1, 2, 3, 4, 5, 6]));
  return [
    "Paired comparisons (alternating batches of the two cases, CPU time): the targets are judged on these; the peers' are for reading",
    table,
  ].join('\n');
}

export function formatTargets(targets: readonly Target[]): string {
  const value = (t: Target) => {
    switch (t.unit) {
      case 'x':
        return `${t.value.toFixed(2)}×`;
      case 'ns':
        return Math.abs(t.value) < 10 ? `${t.value.toFixed(1)} ns` : `${Math.round(t.value)} ns`;
      case 'MB':
        return `${t.value.toFixed(1)} MB`;
      case 'errors':
        return `${t.value} errors`;
    }
  };
  const bound = (t: Target, v: number) =>
    t.unit === 'ns' ? `${Math.abs(v) < 10 ? v.toFixed(1) : Math.round(v)} ns` : `${v.toFixed(2)}×`;
  const interval = (t: Target) =>
    t.band === undefined
      ? ''
      : ` (95 % interval ${bound(t, t.band.low)} – ${bound(t, t.band.high)}, ${t.band.samples} ${t.pooledOver ?? 'pairs'})`;
  return targets.map((t) => `  ${t.verdict.padEnd(6)}  ${t.description}: ${value(t)}${interval(t)}`).join('\n');
}

/** The values each band target was judged on: each process's median, each round's or pair's ratio. */
export function formatPooledValues(targets: readonly Target[]): string {
  const value = (t: Target, v: number) => (t.unit === 'ns' ? `${Math.round(v)}` : v.toFixed(3));
  const lines = targets
    .filter((t) => t.pooledOver === 'processes')
    .map(
      (t) =>
        `  ${t.id.padEnd(26)} ${(t.pooled ?? []).map((v) => value(t, v)).join('  ')}${t.unit === 'ns' ? ' ns' : ''}`,
    );
  return ["The per-call targets' values in each process (each the median of that process's pairs):", ...lines].join(
    '\n',
  );
}
