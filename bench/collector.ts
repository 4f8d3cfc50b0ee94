/**
 * The collector group (`npm run bench -- --only collector`): the scale-out tier's capacity on this machine,
 * from the collector scripts/services.sh builds and the repository's configs, with an OTLP sink on 127.0.0.1
 * in Jaeger's place (bench/collector/sink.ts) and Node senders of pre-encoded agent runs
 * (bench/collector/sender.ts):
 * - the spans per second with no loss of one gateway alone and of the tier (the load balancer and
 *   `--samplers` gateways), with the CPU each used (bench/collector/throughput.ts);
 * - the latency the load balancer adds (bench/collector/latency.ts);
 * - a gateway's memory per trace awaiting its decision (bench/collector/memory.ts).
 *
 *   node bench/collector.mjs --binary <otelcol-tool-calls> --sender <sender.mjs> --out <file.json> [--quick] [--samplers 3]
 *
 * bench/run.ts bundles and runs it; --quick proves it works (a step or two of a few seconds), its numbers
 * mean nothing.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureLatency } from './collector/latency.js';
import type { LoadSettings } from './collector/load.js';
import { measureMemory } from './collector/memory.js';
import { startSink } from './collector/sink.js';
import { measureThroughput, type ThroughputSettings } from './collector/throughput.js';
import { type CollectorResult, capacityPlan, EXAMPLE_FLEETS, measuredCapacity } from './lib/collector.js';

const { values } = parseArgs({
  options: {
    binary: { type: 'string' },
    sender: { type: 'string' },
    out: { type: 'string' },
    quick: { type: 'boolean', default: false },
    samplers: { type: 'string', default: '3' },
  },
});
if (!values.binary || !values.sender || !values.out) {
  throw new Error('bench/collector.ts needs --binary, --sender and --out');
}
const quick = values.quick;
const samplers = Number(values.samplers);
if (!Number.isInteger(samplers) || samplers < 1)
  throw new Error(`--samplers takes a whole number ≥ 1 (not ${values.samplers})`);
// bench/run.ts runs this bundle from a scratch folder: the repository is the working directory
const root = process.cwd();
const log = (line: string) => process.stderr.write(`${line}\n`);

/** A trace of this run: the bench's marker (4 random bytes), then the measurement's bytes. */
const runMarker = randomBytes(4);
const load: LoadSettings = {
  senderScript: values.sender,
  senders: 2,
  maxInFlight: 16,
  spansPerTrace: 10,
  tracesPerRequest: 40,
  errorEvery: 20,
};
const dataDir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-bench-collector-'));
/**
 * The throughput steps' decision wait is short (2 s, not gateway.yaml's 30 s) so that the tail sampler's
 * `num_traces` (100,000 held at once) does not bind before the CPU does: at 160,000 spans/s of 10-span runs a
 * 30 s wait would hold 480,000 traces. The memory run measures what a long wait holds; the plan adds both.
 */
const throughputSettings: Omit<ThroughputSettings, 'measurement'> = {
  root,
  binary: values.binary,
  dataDir,
  load,
  runMarker,
  samplingPercentage: 10,
  ...(quick
    ? {
        stepSeconds: 2,
        decisionWaitSeconds: 1,
        startSpansPerSecond: 2_000,
        factor: 2,
        maxSteps: 1,
        refinements: 0,
        drainSlackSeconds: 10,
        lateLimitSeconds: 1,
      }
    : {
        stepSeconds: 20,
        decisionWaitSeconds: 2,
        startSpansPerSecond: 20_000,
        factor: 2,
        maxSteps: 9,
        refinements: 2,
        drainSlackSeconds: 3,
        lateLimitSeconds: 1,
      }),
};

const sink = await startSink();
try {
  const version = spawnSync(values.binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const gateway = await measureThroughput(
    { kind: 'gateway', gateways: 1 },
    sink,
    { ...throughputSettings, measurement: 1 },
    log,
  );
  const tier = await measureThroughput(
    { kind: 'tier', gateways: samplers },
    sink,
    { ...throughputSettings, measurement: 2 },
    log,
  );
  const latency = await measureLatency(
    sink,
    {
      root,
      binary: values.binary,
      dataDir,
      runMarker,
      spansPerTrace: load.spansPerTrace,
      ...(quick
        ? { tracesPerSecond: 50, roundSeconds: 1, rounds: 1 }
        : { tracesPerSecond: 200, roundSeconds: 5, rounds: 4 }),
    },
    log,
  );
  const memory = await measureMemory(
    sink,
    {
      root,
      binary: values.binary,
      dataDir,
      load,
      runMarker,
      gogc: ['default', '10'],
      ...(quick
        ? { levels: [0, 400, 800], spansPerSecond: 4_000, settleSeconds: 1, decisionWaitSeconds: 120 }
        : {
            levels: [0, 10_000, 20_000, 30_000, 40_000, 50_000],
            spansPerSecond: 20_000,
            settleSeconds: 3,
            decisionWaitSeconds: 600,
          }),
    },
    log,
  );
  const measured = measuredCapacity([gateway, tier], memory);
  const result: CollectorResult = {
    status: 'measured',
    collector: version,
    spansPerTrace: load.spansPerTrace,
    tracesPerRequest: load.tracesPerRequest,
    errorEvery: load.errorEvery,
    senders: load.senders,
    throughput: [gateway, tier],
    latency,
    memory,
    capacity: measured && {
      measured,
      examples: EXAMPLE_FLEETS.map((fleet) => ({ fleet, plan: capacityPlan(measured, fleet) })),
    },
  };
  writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await sink.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
