import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchGroupAlone, benchScratch } from '../helpers/bench-alone.js';
import { skipOrFail } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';

// `npm run bench -- --only collector --quick` as a user would run it: the scale-out tier's capacity from the
// collector scripts/services.sh builds. No figure is judged: quick-mode numbers mean nothing; what is checked
// is that every measurement ran on real collectors and accounted for every span and trace it sent, and that
// without the built collector the group says so and still writes its report.

const scratch = benchScratch('collector-only');
const collectorGate = serviceGate('otelcol-tool-calls');
const benchCollector = (out: string, env?: NodeJS.ProcessEnv) => benchGroupAlone('collector', out, env);

interface Step {
  sent: { requests: number; acknowledged: number; traces: number; spans: number; errorTraces: number };
  loadBalancer?: { acceptedSpans: number; refusedSpans: number };
  gateways: Array<{ acceptedSpans: number; decidedTraces: number; sampledTraces: number; sentSpans: number }>;
  sink: { spans: number; traces: number; partialTraces: number; errorTraces: number };
  lossless: boolean;
  problems: string[];
}

describe('npm run bench -- --only collector', () => {
  it('skips with the reason when the built collector is missing, and writes its report all the same', async () => {
    const emptyBin = join(scratch, 'no-services-bin');
    mkdirSync(emptyBin);
    const { stdout, stderr, report } = await benchCollector(join(scratch, 'skipped.json'), {
      OTEL_TOOL_CALLS_SERVICES_BIN: emptyBin,
    });
    expect(report.collector.status).toBe('skipped');
    expect(report.collector.reason).toContain(`otelcol-tool-calls is not in ${emptyBin}`);
    expect(report.collector.reason).toContain('bash scripts/services.sh');
    expect(report.targets).toEqual([]);
    expect(stderr).toContain(`▶ collector skipped: otelcol-tool-calls is not in ${emptyBin}`);
    expect(stdout).toContain('Collector tier: skipped (otelcol-tool-calls is not in');
  }, 300_000);

  it('measures a gateway alone and the tier of three with nothing lost, the load balancer’s latency, memory per trace held and the plan, in its JSON', async (ctx) => {
    if (!collectorGate.path) return skipOrFail(ctx, collectorGate);
    const { stdout, stderr, report } = await benchCollector(join(scratch, 'collector.json'));
    expect(Object.keys(report).sort()).toEqual([
      'collector',
      'command',
      'elapsedSeconds',
      'generatedAt',
      'machine',
      'quick',
      'targets',
    ]);
    expect(report.command).toBe('node --import tsx bench/run.ts --only collector --quick');
    const { collector } = report;
    expect(collector.status).toBe('measured');
    expect(collector.collector).toMatch(/^otelcol-tool-calls version 0\.\d+\.\d+/);

    // --quick: one step each, 2,000 spans/s for 2 s
    expect(collector.throughput.map((r: { topology: object }) => r.topology)).toEqual([
      { kind: 'gateway', gateways: 1 },
      { kind: 'tier', gateways: 3 },
    ]);
    for (const { topology, steps, maxLosslessSpansPerSecond } of collector.throughput) {
      expect(steps).toHaveLength(1);
      const step = steps[0] as Step;
      expect(step.problems, topology.kind).toEqual([]);
      expect(step.lossless).toBe(true);
      expect(maxLosslessSpansPerSecond).toBe(2_000);
      // every span sent was acknowledged and accepted, every trace decided once, every kept span at the sink
      expect(step.sent.acknowledged).toBe(step.sent.requests);
      expect(step.sent.spans).toBe(step.sent.traces * collector.spansPerTrace);
      expect(step.sent.errorTraces).toBe(step.sent.traces / collector.errorEvery);
      const sum = (field: 'acceptedSpans' | 'decidedTraces' | 'sampledTraces' | 'sentSpans') =>
        step.gateways.reduce((total, gateway) => total + gateway[field], 0);
      expect(sum('acceptedSpans')).toBe(step.sent.spans);
      expect(sum('decidedTraces')).toBe(step.sent.traces);
      expect(step.sink.spans).toBe(sum('sentSpans'));
      expect(step.sink.traces).toBe(sum('sampledTraces'));
      expect(step.sink.partialTraces).toBe(0);
      // every run with an error kept whole, and some error-free ones (10 % of 380) beside them
      expect(step.sink.errorTraces).toBe(step.sent.errorTraces);
      expect(step.sink.traces).toBeGreaterThan(step.sent.errorTraces);
      if (topology.kind === 'tier') {
        expect(step.loadBalancer?.acceptedSpans).toBe(step.sent.spans);
        // routed by trace ID to all three gateways, each trace whole to one of them
        for (const gateway of step.gateways) expect(gateway.decidedTraces).toBeGreaterThan(0);
      } else {
        expect(step.loadBalancer).toBeUndefined();
      }
    }

    const { latency } = collector;
    expect(latency.paths.map((path: { path: string }) => path.path)).toEqual(['direct', 'load-balancer']);
    for (const path of latency.paths) {
      expect(path.sent, path.path).toBe(latency.spansPerSecond / collector.spansPerTrace);
      expect(path.arrived, path.path).toBe(path.sent);
      expect(path.p50Ms).toBeLessThanOrEqual(path.p95Ms);
      expect(path.p95Ms).toBeLessThanOrEqual(path.p99Ms);
    }

    // every trace sent to the memory gateways still held (its own gauge), none decided nor dropped
    expect(collector.memory.runs.map((r: { gogc: string }) => r.gogc)).toEqual(['default', '10']);
    for (const memoryRun of collector.memory.runs) {
      expect(memoryRun.points.map((point: { sentTraces: number }) => point.sentTraces)).toEqual([0, 400, 800]);
      for (const point of memoryRun.points) expect(point.tracesOnMemory).toBe(point.sentTraces);
      expect(memoryRun.decidedOrDropped).toBe(0);
      expect(memoryRun.heapBytesPerTrace).toBeGreaterThan(0);
    }

    // the plan of BENCHMARKS.md's examples, from the tier's figures and the GOGC=10 run's heap per span
    const { measured, examples } = collector.capacity;
    const tier = collector.throughput[1].atMax;
    expect(measured.gatewaySpansPerCpuSecond).toBe(tier.gatewaySpansPerCpuSecond);
    expect(measured.loadBalancerSpansPerCpuSecond).toBe(tier.loadBalancerSpansPerCpuSecond);
    expect(measured.liveBytesPerSpan).toBeCloseTo(collector.memory.runs[1].heapBytesPerTrace / 10, 6);
    expect(measured.inFlightBytesPerSpanPerSecond).toBeGreaterThanOrEqual(0);
    expect(examples.map((e: { fleet: { runsPerSecond: number } }) => e.fleet.runsPerSecond)).toEqual([
      50, 2_000, 2_000,
    ]);
    for (const { fleet, plan } of examples) {
      expect(plan.spansPerSecond).toBe(fleet.runsPerSecond * fleet.spansPerRun);
      expect(plan.tracesAwaiting).toBe(fleet.runsPerSecond * (fleet.decisionWaitSeconds + 1));
      expect(plan.gateways).toBe(Math.max(plan.gatewaysForCpu, plan.gatewaysForMemory, plan.gatewaysForNumTraces) + 1);
      // the memory: twice the held traces' live heap (Go's GC headroom) and what receiving takes
      expect(plan.awaitingBytes).toBeCloseTo(plan.tracesAwaiting * fleet.spansPerRun * measured.liveBytesPerSpan, 3);
      expect(plan.memoryBytes).toBeCloseTo(
        2 * plan.awaitingBytes + measured.inFlightBytesPerSpanPerSecond * plan.spansPerSecond,
        3,
      );
      expect(plan.gatewaysForMemory).toBe(
        Math.ceil(plan.memoryBytes / (0.6 * fleet.memoryPerGatewayBytes - 60 * 1024 * 1024)),
      );
    }

    expect(stdout).toContain('the collector tier alone (QUICK MODE: not measurements)');
    expect(stdout).toContain('Spans per second with no loss');
    expect(stdout).toContain('| the tier: load balancer + 3 gateways ');
    expect(stdout).toContain('added by the load balancer: p50 ');
    expect(stdout).toContain('Capacity plan (BENCHMARKS.md)');
    expect(stdout).not.toContain('Targets');
    expect(stderr).toContain('▶ collector: memory, GOGC 10');
    expect(stderr).not.toContain('▶ sdk');
  }, 300_000);
});
