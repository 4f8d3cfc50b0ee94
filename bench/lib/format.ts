import type { ThroughputResult } from '../collector/throughput.js';
import { band } from './band.js';
import type { CollectorResult } from './collector.js';
import type { Interval, MetricsPathsResult } from './metrics-paths.js';
import type { PairedResult } from './paired.js';
import type { PeersStatus } from './peers.js';
import type { AllocationReportRow, ReportRow } from './rows.js';
import type { StartupResult, StartupRow } from './startup.js';
import {
  type InFlightResult,
  MCP_FLOOR_LIMIT,
  type McpRoundTripResult,
  type MemoryResult,
  type RepeatTableResult,
  type SharedTimesResult,
  type Target,
} from './targets.js';

/** The report as text: markdown tables and lines, printed and pasted into BENCHMARKS.md. */

const MB = 1024 * 1024;

export function formatInFlight(result: InFlightResult): string {
  const measured = band(result.ratios, 1);
  return (
    `Memory per call in flight (${result.inFlight.toLocaleString('en-US')} async calls in flight, real SDK, heap after full collections, ${result.pairs} pairs): ` +
    `listener ${Math.round(result.listenerBytesPerCall).toLocaleString('en-US')} B, floor ${Math.round(result.floorBytesPerCall).toLocaleString('en-US')} B; ` +
    `× floor ${measured.median.toFixed(2)} (95 % interval ${measured.low.toFixed(2)}–${measured.high.toFixed(2)})`
  );
}

export function formatRepeatTable(result: RepeatTableResult): string {
  return (
    `Repeat table (recordRepeatedCalls), ${result.traces.toLocaleString('en-US')} traces of ${result.callsPerTrace} calls, real SDK, heap after full collections: ` +
    `${(result.tableBytes / 1024).toFixed(0)} KB (the listener with it, less the listener without it)`
  );
}

export function formatMcpRoundTrip(result: McpRoundTripResult): string {
  const interval = (values: readonly number[]) => {
    const b = band(values, MCP_FLOOR_LIMIT);
    return `${b.median.toFixed(2)}× (95 % interval ${b.low.toFixed(2)}–${b.high.toFixed(2)}×)`;
  };
  const row = (label: string, total: number, server: number) =>
    `  ${label.padEnd(52)} ${ns(total).padStart(9)}   (server ${ns(server)})`;
  return [
    `MCP tools/call round trip over stdio (CPU of client + server per call, ${result.pairs} rounds of ${result.callsPerBatch} calls per world, each server warmed up with ${result.warmupCalls} calls first):`,
    row('bare server, no SDK in it', result.noSdkNs, result.serverNs.none),
    row('bare client and server, SDK', result.sdkNs, result.serverNs.sdk),
    row('floor: the same telemetry written by hand, SDK', result.floorNs, result.serverNs.floor),
    row('client and server observed, SDK', result.observedNs, result.serverNs.observed),
    `  observed × floor (this package's overhead, the target): ${interval(result.floorRatios)}`,
    `  floor × bare with the SDK (the telemetry itself, done by hand): ${interval(result.floorOverSdkRatios)}`,
    `  observed × bare with the SDK: ${interval(result.ratios)}`,
    `  observed × bare server without the SDK (tracing at all): ${interval(result.noSdkRatios)}`,
    `  observed × floor while warming up (each server's first ${result.warmupCalls} calls, not judged): ${interval(result.warmupFloorRatios)}`,
  ].join('\n');
}

/** Startup cases as a markdown table: CPU and peak RSS, each against the bare process. */
function startupTable(rows: readonly StartupRow[]): string {
  return markdownTable(
    ['case', 'what runs', 'CPU (median)', '× bare', 'peak RSS (median)', '× bare'],
    rows.map((row) => [
      row.id,
      row.label,
      `${Math.round(row.cpuMs)} ms`,
      times(row.cpuVsBare),
      `${row.peakRssMb.toFixed(1)} MB`,
      times(row.rssVsBare),
    ]),
    new Set([2, 3, 4, 5]),
  );
}

/**
 * The startup group as markdown tables: this Node's in full, then each other runtime's ratios side
 * by side (× bare, CPU / peak RSS).
 */
export function formatStartup(startup: StartupResult): string {
  const [first, ...others] = startup.runtimes;
  if (!first) return 'Startup: no runtime measured';
  const sections = [
    `Startup on Node ${first.runtime.version} (whole process, /usr/bin/time, ${startup.rounds} rounds of every case in rotating order; × bare: median of the per-round ratios)`,
    startupTable(first.rows),
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

/**
 * The metrics paths group: per call (each path's row, then each push ÷ pull with its interval) and at
 * start (each case's row on this Node, then each way of starting, push ÷ pull).
 */
export function formatMetricsPaths(result: MetricsPathsResult): string {
  const { perCall, atStart } = result;
  const ratio = (value: Interval, of: string) =>
    `${times(value.median)} (95 % interval ${value.low.toFixed(2)}–${times(value.high)}, ${value.samples} ${of})`;
  const perCallTable = markdownTable(
    [
      'path',
      'what the app does',
      'CPU/call, export included',
      'the calls alone',
      'CPU per export',
      'its share of a call',
      'payload',
      'bytes/call',
      'bytes per export',
    ],
    perCall.paths.map((row) => [
      row.id,
      row.label,
      ns(row.nsPerCall),
      ns(row.callsNsPerCall),
      `${(row.exportNs / 1e6).toFixed(2)} ms`,
      ns(row.exportShareNs),
      bytes(row.payloadBytes),
      bytes(row.bytesPerCall),
      bytes(row.bytesPerExport),
    ]),
    new Set([2, 3, 4, 5, 6, 7, 8]),
  );
  const startTable = startupTable(atStart.rows);
  return [
    'Metrics paths: pushing OTLP against serving /metrics (push ÷ pull; reported, not judged)',
    `Per call (the listener on the real SDK, ${perCall.tools} tools, one call in ${perCall.failingOneIn} of each failing; ` +
      `batches of ${perCall.callsPerBatch.toLocaleString('en-US')} calls, then one export or one scrape by another process on 127.0.0.1; ` +
      `${perCall.processes} processes × ${perCall.roundsPerProcess} rounds of the three paths in rotating order; CPU of the app's process; ` +
      `bytes allocated: windows of ${perCall.callsPerAllocationWindow.toLocaleString('en-US')} calls, and of one export, its share added per call)`,
    perCallTable,
    ...perCall.comparisons.map(
      (c) =>
        `  ${c.subject} ÷ ${c.reference}, per call: ${ratio(c.perCall, 'rounds')}, ${signedNs(c.overNs)}; ` +
        `per export: ${ratio(c.perExport, 'rounds')}; bytes per call ${times(c.bytesPerCall)}`,
    ),
    `
Metrics paths at start on Node ${atStart.runtime.version} (whole process, /usr/bin/time, ${atStart.rounds} rounds in rotating order; × bare: median of the per-round ratios)`,
    startTable,
    ...atStart.comparisons.map(
      (c) => `  ${c.subject} ÷ ${c.reference}: CPU ${ratio(c.cpu, 'rounds')}, peak RSS ${ratio(c.rss, 'rounds')}`,
    ),
  ].join('\n');
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

/** The collector group (bench/collector.ts): capacity, the load balancer's latency, memory per trace, the plan. */
export function formatCollector(result: CollectorResult): string {
  if (result.status === 'skipped') return `Collector tier: skipped (${result.reason})`;
  const rate = (value: number) => Math.round(value).toLocaleString('en-US');
  const cores = (value: number | null | undefined) =>
    value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(2);
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : '–');
  const kb = (value: number) => `${(value / 1024).toFixed(1)} KiB`;
  const topology = (run: ThroughputResult) =>
    run.topology.kind === 'gateway' ? '1 gateway alone' : `the tier: load balancer + ${run.topology.gateways} gateways`;
  const [first] = result.throughput;
  const lines: string[] = [
    `Collector tier (${result.collector}): agent runs of ${result.spansPerTrace} spans, ${result.tracesPerRequest} per ` +
      `OTLP/HTTP request, one in ${result.errorEvery} with an error, from ${result.senders} sender processes; ` +
      `decision wait ${first?.decisionWaitSeconds} s, ${first?.samplingPercentage} % of the error-free runs kept`,
    '',
    'Spans per second with no loss (every CPU figure shares this machine’s cores with the others):',
    markdownTable(
      [
        'topology',
        'max lossless spans/s',
        'gateway cores',
        'spans per gateway CPU-s',
        'LB cores',
        'spans per LB CPU-s',
        'sender cores',
        'sink cores',
      ],
      result.throughput.map((run) => [
        topology(run),
        run.maxLosslessSpansPerSecond === null ? 'none' : rate(run.maxLosslessSpansPerSecond),
        cores(run.atMax?.gatewayCores),
        run.atMax ? rate(run.atMax.gatewaySpansPerCpuSecond) : '–',
        cores(run.atMax?.loadBalancerCores),
        run.atMax?.loadBalancerSpansPerCpuSecond ? rate(run.atMax.loadBalancerSpansPerCpuSecond) : '–',
        cores(run.atMax?.senderCores),
        cores(run.atMax?.benchCores),
      ]),
      new Set([1, 2, 3, 4, 5, 6, 7]),
    ),
    '',
    'Each step (offered for its seconds; got through: spans sent ÷ the seconds the senders took; drained: until every trace was decided and every kept span arrived):',
    markdownTable(
      [
        'topology',
        'offered spans/s',
        'got through',
        'lossless',
        'drained after',
        'gateway cores',
        'LB cores',
        'gateway RSS (largest)',
        'why not',
      ],
      result.throughput.flatMap((run) =>
        run.steps.map((step) => {
          const gatewayCpu = step.gateways.reduce((sum, gateway) => sum + gateway.cpuSeconds, 0);
          return [
            topology(run),
            rate(step.offeredSpansPerSecond),
            rate(step.sent.spans / step.sent.elapsedSeconds),
            step.lossless ? 'yes' : 'no',
            step.drainSeconds === null ? '–' : `${step.drainSeconds.toFixed(1)} s`,
            cores(gatewayCpu / step.sent.elapsedSeconds),
            cores(step.loadBalancer ? step.loadBalancer.cpuSeconds / step.sent.elapsedSeconds : null),
            `${(Math.max(...step.gateways.map((gateway) => gateway.rssBytes)) / MB).toFixed(0)} MB`,
            step.problems.join('; '),
          ];
        }),
      ),
      new Set([1, 2, 4, 5, 6, 7]),
    ),
  ];
  const { latency, memory } = result;
  lines.push(
    '',
    `Latency the load balancer adds (${rate(latency.spansPerSecond)} spans/s, one run per request, ` +
      `${latency.rounds} rounds of ${latency.roundSeconds} s per path, alternating; the sink in the gateway's place):`,
    markdownTable(
      ['path', 'runs arrived', 'p50', 'p95', 'p99'],
      latency.paths.map((path) => [
        path.path === 'direct' ? 'straight to the sink' : 'through the load balancer',
        `${path.arrived} of ${path.sent}`,
        ms(path.p50Ms),
        ms(path.p95Ms),
        ms(path.p99Ms),
      ]),
      new Set([1, 2, 3, 4]),
    ),
    `  added by the load balancer: p50 ${ms(latency.addedP50Ms)}, p95 ${ms(latency.addedP95Ms)}`,
    '',
    `Memory per trace awaiting its decision (one gateway, decision wait ${memory.decisionWaitSeconds} s, ` +
      `traces of ${memory.spansPerTrace} spans):`,
    markdownTable(
      ['GOGC', 'traces held (sent / its gauge)', 'Go heap', 'RSS'],
      memory.runs.flatMap((run) =>
        run.points.map((point) => [
          run.gogc,
          `${rate(point.sentTraces)} / ${rate(point.tracesOnMemory)}`,
          `${(point.heapBytes / MB).toFixed(1)} MB`,
          `${(point.rssBytes / MB).toFixed(1)} MB`,
        ]),
      ),
      new Set([1, 2, 3]),
    ),
    ...memory.runs.map(
      (run) =>
        `  GOGC ${run.gogc}: heap ${kb(run.heapBytesPerTrace)} per trace (${bytes(run.heapBytesPerTrace / memory.spansPerTrace)} ` +
        `per span), RSS ${kb(run.rssBytesPerTrace)} per trace; decided or dropped during the run: ${run.decidedOrDropped}`,
    ),
  );
  if (result.capacity) {
    const { measured, examples } = result.capacity;
    lines.push(
      '',
      `Capacity plan (BENCHMARKS.md): a gateway of the tier handles ${rate(measured.gatewaySpansPerCpuSecond)} spans per ` +
        `CPU-second, the load balancer routes ${rate(measured.loadBalancerSpansPerCpuSecond)}; a span awaiting its ` +
        `decision holds ${bytes(measured.liveBytesPerSpan)} of live heap (twice that between collections), and ` +
        `receiving takes ${bytes(measured.inFlightBytesPerSpanPerSecond)} per span a second besides`,
      markdownTable(
        [
          'fleet',
          'spans/s',
          'traces awaiting',
          'their live heap',
          'memory needed',
          'gateways for CPU',
          'for memory',
          'for num_traces',
          'gateways',
          'LB cores',
        ],
        examples.map(({ fleet, plan }) => [
          `${rate(fleet.runsPerSecond)} runs/s × ${fleet.spansPerRun} spans, ${fleet.decisionWaitSeconds} s wait; ` +
            `gateways of ${fleet.coresPerGateway} core and ${(fleet.memoryPerGatewayBytes / 1024 ** 3).toFixed(0)} GiB at ${Math.round(fleet.utilization * 100)} %`,
          rate(plan.spansPerSecond),
          rate(plan.tracesAwaiting),
          `${rate(plan.awaitingBytes / MB)} MB`,
          `${rate(plan.memoryBytes / MB)} MB`,
          String(plan.gatewaysForCpu),
          String(plan.gatewaysForMemory),
          String(plan.gatewaysForNumTraces),
          String(plan.gateways),
          cores(plan.loadBalancerCores),
        ]),
        new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]),
      ),
    );
  }
  return lines.join('\n');
}
