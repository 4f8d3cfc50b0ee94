/**
 * The latency the load balancer adds: the time from sending a run's spans to their arrival at the sink,
 * through the load balancer (its receiver, its queue on disk, its gRPC export to the gateway's address, here
 * the sink's) against straight to the sink, in alternating rounds at the same rate, one run per request so
 * that each has its own send time. The sink takes the gateway's place because a gateway holds each trace for
 * its decision wait (30 s by default; ticks of 1 s): the milliseconds of the hop in front of it would be lost
 * in that wait, while here they are all there is to measure. Sender and sink are in this process: one clock.
 */
import { performance } from 'node:perf_hooks';
import { type RunningCollector, startCollector } from './collectors.js';
import { sendPaced } from './paced-sender.js';
import type { OtlpSink } from './sink.js';
import { requestTemplate } from './trace-template.js';

export interface LatencySettings {
  readonly root: string;
  readonly binary: string;
  readonly dataDir: string;
  readonly spansPerTrace: number;
  /** Runs (requests) per second on each path. */
  readonly tracesPerSecond: number;
  readonly roundSeconds: number;
  /** Rounds per path, alternating. */
  readonly rounds: number;
  readonly runMarker: Buffer;
}

export interface PathLatency {
  readonly path: 'direct' | 'load-balancer';
  /** Runs sent and runs whose spans all arrived. */
  readonly sent: number;
  readonly arrived: number;
  /** Milliseconds from send to the first span's arrival. */
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
}

export interface LatencyResult {
  readonly spansPerSecond: number;
  readonly roundSeconds: number;
  readonly rounds: number;
  readonly paths: readonly PathLatency[];
  /** The load balancer's path less the direct one. */
  readonly addedP50Ms: number;
  readonly addedP95Ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export async function measureLatency(
  sink: OtlpSink,
  settings: LatencySettings,
  log: (line: string) => void,
): Promise<LatencyResult> {
  let loadBalancer: RunningCollector | undefined;
  try {
    loadBalancer = await startCollector({
      root: settings.root,
      binary: settings.binary,
      name: 'latency-load-balancer',
      role: 'load-balancer',
      dataDir: settings.dataDir,
      env: { LOAD_BALANCER_GATEWAYS: `[${sink.grpcAddress}]` },
    });
    const template = await requestTemplate({
      spansPerTrace: settings.spansPerTrace,
      tracesPerRequest: 1,
      errorEvery: 20,
    });
    const urls = { direct: `${sink.httpUrl}/v1/traces`, 'load-balancer': `${loadBalancer.otlpHttp}/v1/traces` };
    const samples: Record<PathLatency['path'], { sent: number; arrived: number; ms: number[] }> = {
      direct: { sent: 0, arrived: 0, ms: [] },
      'load-balancer': { sent: 0, arrived: 0, ms: [] },
    };
    for (let round = 0; round < settings.rounds; round++) {
      for (const path of ['direct', 'load-balancer'] as const) {
        log(`▶ collector: latency, ${path}, round ${round + 1}/${settings.rounds}`);
        sink.reset();
        const sentAt = new Map<string, number>();
        const prefix = Buffer.concat([settings.runMarker, Buffer.from([0xff, round, path === 'direct' ? 0 : 1, 0])]);
        const result = await sendPaced({
          url: urls[path],
          template,
          prefix,
          requestsPerSecond: settings.tracesPerSecond,
          seconds: settings.roundSeconds,
          maxInFlight: 16,
          onSend: (traceIds, at) => {
            for (const traceId of traceIds) sentAt.set(traceId, at);
          },
        });
        const whole = () =>
          [...sentAt.keys()].filter((traceId) => sink.traces.get(traceId)?.spans === settings.spansPerTrace);
        const deadline = performance.now() + 10_000;
        while (whole().length < result.acknowledged && performance.now() < deadline) await sleep(100);
        const arrived = whole();
        samples[path].sent += sentAt.size;
        samples[path].arrived += arrived.length;
        for (const traceId of arrived) {
          samples[path].ms.push((sink.traces.get(traceId)?.firstAt ?? Number.NaN) - (sentAt.get(traceId) ?? 0));
        }
      }
    }
    const paths = (['direct', 'load-balancer'] as const).map((path): PathLatency => {
      const sorted = [...samples[path].ms].sort((a, b) => a - b);
      return {
        path,
        sent: samples[path].sent,
        arrived: samples[path].arrived,
        p50Ms: quantile(sorted, 0.5),
        p95Ms: quantile(sorted, 0.95),
        p99Ms: quantile(sorted, 0.99),
      };
    });
    const [direct, balanced] = paths as [PathLatency, PathLatency];
    return {
      spansPerSecond: settings.tracesPerSecond * settings.spansPerTrace,
      roundSeconds: settings.roundSeconds,
      rounds: settings.rounds,
      paths,
      addedP50Ms: balanced.p50Ms - direct.p50Ms,
      addedP95Ms: balanced.p95Ms - direct.p95Ms,
    };
  } finally {
    await loadBalancer?.stop();
  }
}
