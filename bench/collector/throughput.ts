/**
 * The spans per second a topology sustains with no loss: one gateway alone (the senders straight to it), or
 * the tier (the senders to the load balancer, which routes each trace to one of its gateways). Steps of a
 * fixed offered rate, each as long as several decision waits; a step is lossless when every request was
 * answered 2xx and started on time, no collector refused, dropped or failed anything, every trace got exactly
 * one decision (none split between gateways), every span a gateway sent reached the sink, every run with an
 * error is there whole, and the last decisions came within the decision wait and a few seconds (a gateway
 * that falls behind its decisions is not sustaining the rate, even before it drops). The rate goes up by
 * `factor` while steps pass, then the bracket between the last pass and the first failure is halved
 * (geometrically) `refinements` times.
 */
import { performance } from 'node:perf_hooks';
import type { MetricSum } from './collector-metrics.js';
import { type RunningCollector, startCollector } from './collectors.js';
import { type LoadResult, type LoadSettings, runLoad } from './load.js';
import type { OtlpSink } from './sink.js';

export interface Topology {
  /** `gateway`: one gateway alone; `tier`: the load balancer in front of `gateways` gateways. */
  readonly kind: 'gateway' | 'tier';
  readonly gateways: number;
}

export interface ThroughputSettings {
  readonly root: string;
  readonly binary: string;
  readonly dataDir: string;
  readonly load: LoadSettings;
  readonly stepSeconds: number;
  readonly decisionWaitSeconds: number;
  readonly samplingPercentage: number;
  readonly startSpansPerSecond: number;
  readonly factor: number;
  readonly maxSteps: number;
  readonly refinements: number;
  /** How long after the decision wait the last decisions and exports may come (the tick and the batch: 1 s each). */
  readonly drainSlackSeconds: number;
  /** Steps whose last request started later than this against its schedule did not get their rate through. */
  readonly lateLimitSeconds: number;
  /** Each step's trace IDs start with these 4 bytes, then `measurement` and the step's number. */
  readonly runMarker: Buffer;
  readonly measurement: number;
}

/** What a collector did during a step: counter deltas from its own metrics, and its CPU. */
export interface CollectorStep {
  readonly name: string;
  readonly acceptedSpans: number;
  readonly refusedSpans: number;
  readonly sentSpans: number;
  readonly sendFailedSpans: number;
  readonly enqueueFailedSpans: number;
  /** Tail sampling: traces decided (sampled or not), sampled, and dropped before their decision. */
  readonly decidedTraces: number;
  readonly sampledTraces: number;
  readonly droppedTooEarly: number;
  readonly cpuSeconds: number;
  readonly rssBytes: number;
}

export interface ThroughputStep {
  readonly offeredSpansPerSecond: number;
  readonly seconds: number;
  readonly sent: Omit<LoadResult, 'senders'>;
  readonly loadBalancer?: CollectorStep;
  readonly gateways: readonly CollectorStep[];
  readonly sink: {
    readonly spans: number;
    readonly traces: number;
    readonly partialTraces: number;
    readonly errorTraces: number;
  };
  /** CPU of this process (the sink, the metrics' scrapes) over the step: the machine's cores are shared. */
  readonly benchCpuSeconds: number;
  /** From the last request's answer until every trace was decided and every sent span had reached the sink. */
  readonly drainSeconds: number | null;
  /** Batches in the collectors' sending queues when the load ended (the load balancer's: work it was behind on). */
  readonly queuedAtLoadEnd: Readonly<Record<string, number>>;
  readonly lossless: boolean;
  /** Why it is not lossless (empty when it is). */
  readonly problems: readonly string[];
}

export interface ThroughputResult {
  readonly topology: Topology;
  readonly decisionWaitSeconds: number;
  readonly samplingPercentage: number;
  readonly steps: readonly ThroughputStep[];
  /** The highest offered rate of a lossless step (null: none passed). */
  readonly maxLosslessSpansPerSecond: number | null;
  /** At that step: the cores each tier used (CPU seconds over the step's seconds) and spans per CPU second. */
  readonly atMax: {
    readonly gatewayCores: number;
    readonly gatewaySpansPerCpuSecond: number;
    readonly loadBalancerCores: number | null;
    readonly loadBalancerSpansPerCpuSecond: number | null;
    readonly senderCores: number;
    readonly benchCores: number;
  } | null;
}

const COUNTERS = {
  acceptedSpans: 'otelcol_receiver_accepted_spans',
  refusedSpans: 'otelcol_receiver_refused_spans',
  sentSpans: 'otelcol_exporter_sent_spans',
  sendFailedSpans: 'otelcol_exporter_send_failed_spans',
  enqueueFailedSpans: 'otelcol_exporter_enqueue_failed_spans',
  droppedTooEarly: 'otelcol_processor_tail_sampling_sampling_trace_dropped_too_early',
  cpuSeconds: 'otelcol_process_cpu_seconds',
} as const;
const DECISIONS = 'otelcol_processor_tail_sampling_global_count_traces_sampled';

function counters(metrics: MetricSum) {
  const values = Object.fromEntries(Object.entries(COUNTERS).map(([key, name]) => [key, metrics(name)])) as Record<
    keyof typeof COUNTERS,
    number
  >;
  return {
    ...values,
    // the receiver's refusals and failures (a receiver may count a failure downstream as either)
    refusedSpans: values.refusedSpans + metrics('otelcol_receiver_failed_spans'),
    decidedTraces: metrics(DECISIONS),
    sampledTraces: metrics(DECISIONS, { sampled: 'true' }),
    rssBytes: metrics('otelcol_process_memory_rss_bytes'),
    queued: metrics('otelcol_exporter_queue_size'),
  };
}
type Counters = ReturnType<typeof counters>;

function delta(name: string, before: Counters, after: Counters): CollectorStep {
  const change = (key: keyof Counters) => after[key] - before[key];
  return {
    name,
    acceptedSpans: change('acceptedSpans'),
    refusedSpans: change('refusedSpans'),
    sentSpans: change('sentSpans'),
    sendFailedSpans: change('sendFailedSpans'),
    enqueueFailedSpans: change('enqueueFailedSpans'),
    decidedTraces: change('decidedTraces'),
    sampledTraces: change('sampledTraces'),
    droppedTooEarly: change('droppedTooEarly'),
    cpuSeconds: change('cpuSeconds'),
    rssBytes: after.rssBytes,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureThroughput(
  topology: Topology,
  sink: OtlpSink,
  settings: ThroughputSettings,
  log: (line: string) => void,
): Promise<ThroughputResult> {
  const label = topology.kind === 'gateway' ? '1 gateway alone' : `the tier, ${topology.gateways} gateways`;
  const collectors: RunningCollector[] = [];
  try {
    const gateways: RunningCollector[] = [];
    for (let n = 1; n <= topology.gateways; n++) {
      const gateway = await startCollector({
        root: settings.root,
        binary: settings.binary,
        name: `${topology.kind}-gateway-${n}`,
        role: 'gateway',
        dataDir: settings.dataDir,
        env: {
          COLLECTOR_BACKEND_OTLP_ENDPOINT: sink.httpUrl,
          COLLECTOR_DECISION_WAIT: `${settings.decisionWaitSeconds}s`,
          COLLECTOR_SAMPLING_PERCENTAGE: String(settings.samplingPercentage),
          COLLECTOR_RETRY_INITIAL_INTERVAL: '1s',
        },
      });
      collectors.push(gateway);
      gateways.push(gateway);
    }
    let loadBalancer: RunningCollector | undefined;
    if (topology.kind === 'tier') {
      loadBalancer = await startCollector({
        root: settings.root,
        binary: settings.binary,
        name: `tier-load-balancer-${topology.gateways}`,
        role: 'load-balancer',
        dataDir: settings.dataDir,
        env: { LOAD_BALANCER_GATEWAYS: `[${gateways.map((gateway) => gateway.otlpGrpc).join(', ')}]` },
      });
      collectors.push(loadBalancer);
    }
    const entry = `${(loadBalancer ?? (gateways[0] as RunningCollector)).otlpHttp}/v1/traces`;

    const steps: ThroughputStep[] = [];
    let passed: number | undefined;
    let failed: number | undefined;
    let rate = settings.startSpansPerSecond;
    let refinements = 0;
    while (steps.length < settings.maxSteps) {
      log(`▶ collector: ${label}, ${Math.round(rate).toLocaleString('en-US')} spans/s for ${settings.stepSeconds} s`);
      const step = await runStep(steps.length, rate, entry, gateways, loadBalancer, sink, settings);
      steps.push(step);
      log(`  ${step.lossless ? 'lossless' : `not lossless: ${step.problems.join('; ')}`}`);
      if (step.lossless) passed = Math.max(passed ?? 0, rate);
      else failed = Math.min(failed ?? Number.POSITIVE_INFINITY, rate);
      if (failed === undefined) {
        rate *= settings.factor;
      } else if (passed === undefined) {
        rate /= settings.factor;
      } else {
        if (refinements >= settings.refinements) break;
        refinements++;
        rate = Math.sqrt(passed * failed);
      }
    }
    const best = steps
      .filter((step) => step.lossless)
      .sort((a, b) => b.offeredSpansPerSecond - a.offeredSpansPerSecond)[0];
    return {
      topology,
      decisionWaitSeconds: settings.decisionWaitSeconds,
      samplingPercentage: settings.samplingPercentage,
      steps,
      maxLosslessSpansPerSecond: best?.offeredSpansPerSecond ?? null,
      atMax: best === undefined ? null : coresAt(best),
    };
  } finally {
    await Promise.all(collectors.map((collector) => collector.stop()));
  }
}

/** The cores a step kept busy (CPU seconds over the sending's seconds) and the spans each CPU second handled. */
function coresAt(step: ThroughputStep): NonNullable<ThroughputResult['atMax']> {
  const gatewayCpu = step.gateways.reduce((sum, gateway) => sum + gateway.cpuSeconds, 0);
  const seconds = step.sent.elapsedSeconds;
  return {
    gatewayCores: gatewayCpu / seconds,
    gatewaySpansPerCpuSecond: step.sent.spans / gatewayCpu,
    loadBalancerCores: step.loadBalancer ? step.loadBalancer.cpuSeconds / seconds : null,
    loadBalancerSpansPerCpuSecond: step.loadBalancer ? step.sent.spans / step.loadBalancer.cpuSeconds : null,
    senderCores: step.sent.cpuSeconds / seconds,
    benchCores: step.benchCpuSeconds / seconds,
  };
}

async function runStep(
  index: number,
  rate: number,
  entry: string,
  gateways: readonly RunningCollector[],
  loadBalancer: RunningCollector | undefined,
  sink: OtlpSink,
  settings: ThroughputSettings,
): Promise<ThroughputStep> {
  const all = loadBalancer ? [...gateways, loadBalancer] : [...gateways];
  const snapshot = async () => Promise.all(all.map(async (collector) => counters(await collector.metrics())));
  // what the previous step left in flight has drained (runStep waits for it); its late arrivals are not counted
  sink.reset();
  const before = await snapshot();
  const cpuBefore = process.cpuUsage();
  const prefix = Buffer.concat([settings.runMarker, Buffer.from([settings.measurement, index])]);
  const sent = await runLoad(entry, rate, settings.stepSeconds, prefix, settings.load);
  const loadEnded = performance.now();
  const ours = () => [...sink.traces].filter(([traceId]) => traceId.startsWith(prefix.toString('hex')));

  // drained: every trace decided, every kept one and every span the gateways sent at the sink, every queue empty
  let after = before;
  let drainSeconds: number | null = null;
  let queuedAtLoadEnd: Record<string, number> | undefined;
  const deadline = loadEnded + (settings.decisionWaitSeconds + 30) * 1000;
  while (performance.now() < deadline) {
    after = await snapshot();
    const decided = gateways.reduce(
      (sum, _, i) => sum + (after[i] as Counters).decidedTraces - (before[i] as Counters).decidedTraces,
      0,
    );
    const exported = gateways.reduce(
      (sum, _, i) => sum + (after[i] as Counters).sentSpans - (before[i] as Counters).sentSpans,
      0,
    );
    const kept = gateways.reduce(
      (sum, _, i) => sum + (after[i] as Counters).sampledTraces - (before[i] as Counters).sampledTraces,
      0,
    );
    const queued = after.reduce((sum, counted) => sum + counted.queued, 0);
    queuedAtLoadEnd ??= Object.fromEntries(all.map((collector, i) => [collector.name, (after[i] as Counters).queued]));
    // the sink's count equal to the exporters' (they count a batch once the sink has answered)
    if (decided >= sent.traces && ours().length >= kept && sink.spans() === exported && queued === 0) {
      drainSeconds = (performance.now() - loadEnded) / 1000;
      break;
    }
    await sleep(250);
  }

  const benchCpu = process.cpuUsage(cpuBefore);
  const gatewaySteps = gateways.map((gateway, i) => delta(gateway.name, before[i] as Counters, after[i] as Counters));
  const loadBalancerStep = loadBalancer
    ? delta(loadBalancer.name, before[gateways.length] as Counters, after[gateways.length] as Counters)
    : undefined;
  const arrived = ours();
  const sinkStep = {
    spans: arrived.reduce((sum, [, trace]) => sum + trace.spans, 0),
    traces: arrived.length,
    partialTraces: arrived.filter(([, trace]) => trace.spans !== settings.load.spansPerTrace).length,
    errorTraces: arrived.filter(([, trace]) => trace.error && trace.spans === settings.load.spansPerTrace).length,
  };
  const total = (field: keyof CollectorStep) =>
    gatewaySteps.reduce((sum, gateway) => sum + (gateway[field] as number), 0);

  const problems: string[] = [];
  const failures = Object.entries(sent.failures);
  if (failures.length > 0)
    problems.push(`requests not acknowledged: ${failures.map(([why, n]) => `${n} × ${why}`).join(', ')}`);
  if (sent.lateSeconds > settings.lateLimitSeconds) {
    problems.push(
      `the senders' last requests started ${sent.lateSeconds.toFixed(1)} s late (the rate did not get through)`,
    );
  }
  for (const collector of [...gatewaySteps, ...(loadBalancerStep ? [loadBalancerStep] : [])]) {
    for (const field of ['refusedSpans', 'sendFailedSpans', 'enqueueFailedSpans', 'droppedTooEarly'] as const) {
      if (collector[field] > 0) problems.push(`${collector.name}: ${field} ${collector[field]}`);
    }
  }
  if (loadBalancerStep && loadBalancerStep.acceptedSpans !== sent.spans) {
    problems.push(`the load balancer accepted ${loadBalancerStep.acceptedSpans} spans of ${sent.spans}`);
  }
  if (total('acceptedSpans') !== sent.spans)
    problems.push(`the gateways accepted ${total('acceptedSpans')} spans of ${sent.spans}`);
  if (total('decidedTraces') !== sent.traces) {
    problems.push(
      `${total('decidedTraces')} decisions for ${sent.traces} traces (more: a trace split between gateways)`,
    );
  }
  if (sinkStep.spans !== total('sentSpans'))
    problems.push(`the sink got ${sinkStep.spans} spans of the ${total('sentSpans')} sent`);
  if (sinkStep.traces !== total('sampledTraces'))
    problems.push(`the sink got ${sinkStep.traces} traces of the ${total('sampledTraces')} kept`);
  if (sinkStep.partialTraces > 0) problems.push(`${sinkStep.partialTraces} traces arrived in part`);
  if (sinkStep.errorTraces !== sent.errorTraces) {
    problems.push(`${sinkStep.errorTraces} of the ${sent.errorTraces} runs with an error arrived whole`);
  }
  if (drainSeconds === null) problems.push('not drained within the decision wait and 30 s');
  else if (drainSeconds > settings.decisionWaitSeconds + settings.drainSlackSeconds) {
    const behind = Object.entries(queuedAtLoadEnd ?? {}).filter(([, batches]) => batches > 0);
    problems.push(
      `the last decisions came ${drainSeconds.toFixed(1)} s after the load: the tier fell behind` +
        (behind.length > 0 ? ` (queued then: ${behind.map(([name, n]) => `${name} ${n} batches`).join(', ')})` : ''),
    );
  }
  const { senders: _, ...sentTotals } = sent;
  return {
    offeredSpansPerSecond: rate,
    seconds: settings.stepSeconds,
    sent: sentTotals,
    loadBalancer: loadBalancerStep,
    gateways: gatewaySteps,
    sink: sinkStep,
    benchCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
    drainSeconds,
    queuedAtLoadEnd: queuedAtLoadEnd ?? {},
    lossless: problems.length === 0,
    problems,
  };
}
