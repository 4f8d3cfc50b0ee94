/**
 * The collector group's result (bench/collector.ts) and the capacity plan it gives: how many gateways
 * (samplers) a fleet needs for a rate of agent runs, spans per run and decision wait (BENCHMARKS.md,
 * "Scale-out: the collector tier's capacity").
 */
import type { LatencyResult } from '../collector/latency.js';
import type { MemoryResult } from '../collector/memory.js';
import type { ThroughputResult } from '../collector/throughput.js';

export type CollectorResult =
  | {
      readonly status: 'measured';
      /** `otelcol-tool-calls --version`. */
      readonly collector: string;
      readonly spansPerTrace: number;
      readonly tracesPerRequest: number;
      readonly errorEvery: number;
      readonly senders: number;
      /** One gateway alone, then the tier. */
      readonly throughput: readonly ThroughputResult[];
      readonly latency: LatencyResult;
      readonly memory: MemoryResult;
      /** The figures a plan takes, and the plans of BENCHMARKS.md's examples (null: a measurement failed). */
      readonly capacity: {
        readonly measured: MeasuredCapacity;
        readonly examples: ReadonlyArray<{ readonly fleet: Fleet; readonly plan: CapacityPlan }>;
      } | null;
    }
  | { readonly status: 'skipped'; readonly reason: string };

/** What the plan takes from the measurements. */
export interface MeasuredCapacity {
  /** Spans a gateway handles per CPU second (at its highest lossless rate). */
  readonly gatewaySpansPerCpuSecond: number;
  /** Spans the load balancer routes per CPU second. */
  readonly loadBalancerSpansPerCpuSecond: number;
  /** Live heap per span held awaiting a decision (the GOGC=10 run's slope ÷ spans per trace). */
  readonly liveBytesPerSpan: number;
  /**
   * What receiving costs in memory besides the held traces, per span a second a gateway receives: the median,
   * over the gateways of every lossless step, of its resident set less the idle collector's and twice the
   * live heap of the traces it held (rate × (wait + 1 s) × live bytes per span), over its rate. A resident
   * set is a high-water mark: this errs high.
   */
  readonly inFlightBytesPerSpanPerSecond: number;
}

/** What a team plans for. */
export interface Fleet {
  readonly runsPerSecond: number;
  readonly spansPerRun: number;
  readonly decisionWaitSeconds: number;
  readonly coresPerGateway: number;
  /**
   * The share of a gateway's measured capacity (its cores' spans per second, gateway.yaml's `num_traces`) to
   * plan to use: the rest is headroom for bursts, a restart's catch-up and one gateway fewer.
   */
  readonly utilization: number;
  /** Memory per gateway (its container's limit) in bytes. */
  readonly memoryPerGatewayBytes: number;
}

/**
 * The memory_limiter of gateway.yaml refuses data while the heap (live data and garbage not yet collected) is
 * over 60 % of the memory (its limit of 80 % less a spike allowance of 20 %), and forces a collection only
 * over 80 %; the collector itself takes about 60 MB before it holds a trace.
 */
export const USABLE_MEMORY_SHARE = 0.6;
export const BASELINE_BYTES = 60 * 1024 * 1024;
/**
 * Go's default GOGC (100) lets the heap grow to twice the live data before it collects: held traces of B
 * bytes make a heap of up to 2B between collections, and it is that heap the limiter weighs.
 */
export const GC_HEADROOM = 2;
/** gateway.yaml's tail_sampling `num_traces`: the traces one gateway can hold awaiting their decision. */
export const NUM_TRACES = 100_000;
/** The tail sampler decides once a second on the traces whose wait is over. */
export const DECISION_TICK_SECONDS = 1;

export interface CapacityPlan {
  readonly spansPerSecond: number;
  /**
   * Traces awaiting their decision across the tier: runs per second × (the decision wait + 1 s: the sampler
   * decides at its first tick, once a second, after the wait).
   */
  readonly tracesAwaiting: number;
  /** Their live heap across the tier. */
  readonly awaitingBytes: number;
  /** The memory the gateways need together: twice that heap (GC_HEADROOM) and what receiving costs. */
  readonly memoryBytes: number;
  readonly gatewaysForCpu: number;
  readonly gatewaysForMemory: number;
  readonly gatewaysForNumTraces: number;
  /**
   * One more than the most of the three: with one gateway down (a restart, a node lost) the others still hold
   * the load, once the resolver has taken it out (the k8s and dns resolvers; the static one waits for it).
   */
  readonly gateways: number;
  readonly loadBalancerCores: number;
}

export function capacityPlan(measured: MeasuredCapacity, fleet: Fleet): CapacityPlan {
  const spansPerSecond = fleet.runsPerSecond * fleet.spansPerRun;
  const tracesAwaiting = fleet.runsPerSecond * (fleet.decisionWaitSeconds + DECISION_TICK_SECONDS);
  const awaitingBytes = tracesAwaiting * fleet.spansPerRun * measured.liveBytesPerSpan;
  const perGatewaySpans = measured.gatewaySpansPerCpuSecond * fleet.coresPerGateway * fleet.utilization;
  const perGatewayBytes = fleet.memoryPerGatewayBytes * USABLE_MEMORY_SHARE - BASELINE_BYTES;
  const gatewaysForCpu = Math.ceil(spansPerSecond / perGatewaySpans);
  const memoryBytes = GC_HEADROOM * awaitingBytes + measured.inFlightBytesPerSpanPerSecond * spansPerSecond;
  const gatewaysForMemory = Math.ceil(memoryBytes / perGatewayBytes);
  const gatewaysForNumTraces = Math.ceil(tracesAwaiting / (NUM_TRACES * fleet.utilization));
  return {
    spansPerSecond,
    tracesAwaiting,
    awaitingBytes,
    memoryBytes,
    gatewaysForCpu,
    gatewaysForMemory,
    gatewaysForNumTraces,
    gateways: Math.max(gatewaysForCpu, gatewaysForMemory, gatewaysForNumTraces) + 1,
    loadBalancerCores: spansPerSecond / (measured.loadBalancerSpansPerCpuSecond * fleet.utilization),
  };
}

/**
 * The measured figures a plan uses: the tier's gateways (which receive over gRPC, gzip-compressed, from the
 * load balancer: more CPU per span than a gateway the apps send to straight) and its load balancer, at the
 * tier's highest lossless rate; the GOGC=10 run's heap per span; the lossless steps' resident sets.
 */
export function measuredCapacity(
  throughput: readonly ThroughputResult[],
  memory: MemoryResult,
): MeasuredCapacity | null {
  const tier = throughput.find((run) => run.topology.kind === 'tier')?.atMax;
  const live = memory.runs.find((run) => run.gogc !== 'default');
  const idle = memory.runs.find((run) => run.gogc === 'default')?.points[0];
  if (!tier || tier.loadBalancerSpansPerCpuSecond === null || !live || !idle) return null;
  const liveBytesPerSpan = live.heapBytesPerTrace / memory.spansPerTrace;
  const inFlight = throughput.flatMap((run) =>
    run.steps
      .filter((step) => step.lossless)
      .flatMap((step) => {
        const rate = step.sent.spans / step.sent.elapsedSeconds / run.topology.gateways;
        const held = rate * (run.decisionWaitSeconds + DECISION_TICK_SECONDS) * liveBytesPerSpan;
        return step.gateways.map((gateway) => (gateway.rssBytes - idle.rssBytes - GC_HEADROOM * held) / rate);
      }),
  );
  return {
    gatewaySpansPerCpuSecond: tier.gatewaySpansPerCpuSecond,
    loadBalancerSpansPerCpuSecond: tier.loadBalancerSpansPerCpuSecond,
    liveBytesPerSpan,
    inFlightBytesPerSpanPerSecond: Math.max(0, median(inFlight)),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const GIB = 1024 ** 3;

/** The [scale-out] issue's example fleet, on gateways of one core and 2 GiB. */
const ISSUE_FLEET: Fleet = {
  runsPerSecond: 50,
  spansPerRun: 30,
  decisionWaitSeconds: 30,
  coresPerGateway: 1,
  utilization: 0.7,
  memoryPerGatewayBytes: 2 * GIB,
};

/**
 * BENCHMARKS.md's examples: the issue's (50 runs/s of 30 spans, 30 s wait), a fleet forty times as busy, and
 * the same with gateways of twice the memory (at a 30 s wait the held traces, not the CPU, size the tier).
 */
export const EXAMPLE_FLEETS: readonly Fleet[] = [
  ISSUE_FLEET,
  { ...ISSUE_FLEET, runsPerSecond: 2_000 },
  { ...ISSUE_FLEET, runsPerSecond: 2_000, memoryPerGatewayBytes: 4 * GIB },
];
