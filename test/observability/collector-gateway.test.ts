/**
 * The gateway tier of observability/collector/gateway.yaml on the real Jaeger v2 binary (an OpenTelemetry
 * Collector distribution): three agent processes (fixtures/traced-agent.ts) → the gateway (memory limiter,
 * tail sampling, batch) → a second Jaeger with the stack's config, read through its query API. Every trace
 * with an error is kept, whole; of the others a share is kept, each whole too; nothing else is lost.
 *
 * The test changes waits and the share only, through the config's variables: a decision wait of 2 s
 * (instead of 30 s) and 50% of the error-free traces (instead of 10%), so that both "some kept" and "some
 * dropped" hold on 30 such traces (each fails with probability 2^-30).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { type RunningJaeger, startJaeger } from '../helpers/jaeger.js';
import { skipOrFail, waitFor } from '../helpers/prometheus.js';
import { answers, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { serviceGate } from '../helpers/service-binaries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/traced-agent.ts', import.meta.url));
const gatewayConfig = fileURLToPath(new URL('../../observability/collector/gateway.yaml', import.meta.url));
const jaegerGate = serviceGate('jaeger');
/** The stack's collector (the gateway queues on disk: the Jaeger build has no file_storage). */
const collectorGate = serviceGate('otelcol-tool-calls');
const AGENTS = ['tool-calls-agent-1', 'tool-calls-agent-2', 'tool-calls-agent-3'];
const RUNS = 30;

interface Counted {
  agentSpans: Array<{ traceId: string; spanId: string }>;
  toolSpans: Array<{ traceId: string; spanId: string; failed: boolean }>;
}

function runAgent(service: string, otlpEndpoint: string): Promise<Counted> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', fixture, '--runs', String(RUNS), '--service', service],
      { cwd: root, env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint }, timeout: 90_000 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${service}: ${error.message}\n${stderr}`))
          : resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Counted),
    );
  });
}

/** The gateway's tail-sampling decisions so far, from its own metrics: traces sampled and not. */
async function decisions(metricsUrl: string): Promise<{ sampled: number; dropped: number }> {
  const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(5_000) })).text();
  const count = (sampled: boolean) =>
    [
      ...text.matchAll(
        new RegExp(
          `^otelcol_processor_tail_sampling_global_count_traces_sampled(?:_total)?\\{[^}]*sampled="${sampled}"[^}]*\\} (\\d+)`,
          'gm',
        ),
      ),
    ].reduce((sum, match) => sum + Number(match[1]), 0);
  return { sampled: count(true), dropped: count(false) };
}

describe('the gateway collector (observability/collector/gateway.yaml) on the stack’s collector, before the real Jaeger v2', () => {
  let backend: RunningJaeger | undefined;
  let gateway: ServerProcess | undefined;
  let gatewayOtlp = '';
  let gatewayMetrics = '';
  let queueDir: string | undefined;

  beforeAll(async () => {
    if (!jaegerGate.path || !collectorGate.path) return;
    backend = await startJaeger(jaegerGate.path);
    queueDir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-gateway-queue-'));
    const ports = {
      COLLECTOR_OTLP_HTTP_PORT: await freePort(),
      COLLECTOR_OTLP_GRPC_PORT: await freePort(),
      COLLECTOR_HEALTH_PORT: await freePort(),
      COLLECTOR_METRICS_PORT: await freePort(),
    };
    gatewayOtlp = `http://127.0.0.1:${ports.COLLECTOR_OTLP_HTTP_PORT}`;
    gatewayMetrics = `http://127.0.0.1:${ports.COLLECTOR_METRICS_PORT}/metrics`;
    gateway = await startServerProcess('the gateway collector', collectorGate.path, [`--config=${gatewayConfig}`], {
      env: {
        COLLECTOR_LISTEN_HOST: '127.0.0.1',
        COLLECTOR_STORAGE_DIR: queueDir,
        ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
        COLLECTOR_BACKEND_OTLP_ENDPOINT: backend.otlpHttpUrl,
        COLLECTOR_DECISION_WAIT: '2s',
        COLLECTOR_SAMPLING_PERCENTAGE: '50',
      },
      ready: () => answers(`http://127.0.0.1:${ports.COLLECTOR_HEALTH_PORT}/status`),
    });
  }, 90_000);

  afterAll(async () => {
    await gateway?.stop();
    await backend?.stop();
    if (queueDir) rmSync(queueDir, { recursive: true, force: true });
  });

  it('keeps every trace with an error, whole, and a share of the others, from several agent processes', async (ctx) => {
    if (!backend || !gateway) return skipOrFail(ctx, jaegerGate.path ? collectorGate : jaegerGate);
    const counted = await Promise.all(AGENTS.map((service) => runAgent(service, gatewayOtlp)));
    // per trace: its span ids, and whether one of its tool calls failed
    const sent = new Map<string, { service: string; spanIds: Set<string>; failed: boolean }>();
    counted.forEach((app, i) => {
      for (const span of [...app.agentSpans.map((s) => ({ ...s, failed: false })), ...app.toolSpans]) {
        const entry = sent.get(span.traceId) ?? { service: AGENTS[i]!, spanIds: new Set<string>(), failed: false };
        entry.spanIds.add(span.spanId);
        entry.failed ||= span.failed;
        sent.set(span.traceId, entry);
      }
    });
    expect(sent.size).toBe(AGENTS.length * RUNS);
    const withError = [...sent].filter(([, t]) => t.failed).map(([id]) => id);
    const withoutError = [...sent].filter(([, t]) => !t.failed).map(([id]) => id);
    expect(withError).toHaveLength(AGENTS.length * 20); // runs that are odd or a multiple of 3, of 0..29
    expect(withoutError).toHaveLength(AGENTS.length * 10);

    // the gateway has decided on every trace (its own count), then Jaeger has every span of the kept ones
    const decided = await waitFor(
      'a sampling decision on every trace',
      async () => {
        const seen = await decisions(gatewayMetrics);
        if (seen.sampled + seen.dropped < sent.size) throw new Error(JSON.stringify(seen));
        return seen;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(decided.sampled + decided.dropped).toBe(sent.size);
    const stored = await waitFor(
      `the ${decided.sampled} kept traces, whole, in Jaeger`,
      async () => {
        const traces = (await Promise.all(AGENTS.map((service) => backend!.traces(service)))).flat();
        const spans = traces.reduce((sum, trace) => sum + trace.spans.length, 0);
        if (traces.length < decided.sampled || spans < decided.sampled * 4) {
          throw new Error(`${traces.length} traces, ${spans} spans`);
        }
        return traces;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(stored).toHaveLength(decided.sampled);
    for (const trace of stored) {
      const expected = sent.get(trace.traceID);
      expect(expected, trace.traceID).toBeDefined();
      // whole: exactly the spans the app ended, under its service
      expect(new Set(trace.spans.map((span) => span.spanID))).toEqual(expected!.spanIds);
      expect(Object.values(trace.processes).map((p) => p.serviceName)).toEqual([expected!.service]);
    }
    const kept = new Set(stored.map((trace) => trace.traceID));
    expect(withError.filter((id) => !kept.has(id))).toEqual([]); // every error trace
    const keptWithoutError = withoutError.filter((id) => kept.has(id)).length;
    expect(keptWithoutError, 'some error-free traces kept').toBeGreaterThan(0);
    expect(keptWithoutError, 'some error-free traces dropped').toBeLessThan(withoutError.length);
    expect(decided.sampled).toBe(withError.length + keptWithoutError);
  }, 180_000);
});
