/**
 * What a restart costs, measured on the real Jaeger v2 (built by scripts/services.sh):
 * - Jaeger with the compose stack's config (observability/jaeger/config.yaml: Badger on disk) stopped and
 *   started again has every trace it had, as its query API gives them; the memory store (config-memory.yaml,
 *   the tests' default) has none.
 * - An app (fixtures/traced-agent.ts, paced) keeps ending spans while Jaeger is stopped for OUTAGE_MS and
 *   started again. Sent direct, what is lost is exactly what the SDK's OTLP exporter gave up on after its
 *   retries (5 retries, 1 s backoff growing 1.5x, within its 10 s timeout): the spans of those exports.
 *   Sent through the gateway (observability/collector/gateway.yaml: a sending queue and retries), nothing.
 * Counts, not durations: the outage is longer than the exporter's retries, and the tests compare span ids.
 * The figures each run measured are printed (and are in docs/guarantees.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { type JaegerTrace, type RunningJaeger, startJaeger } from '../helpers/jaeger.js';
import { skipOrFail, waitFor } from '../helpers/prometheus.js';
import { answers, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { serviceGate } from '../helpers/service-binaries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/traced-agent.ts', import.meta.url));
const gatewayConfig = fileURLToPath(new URL('../../observability/collector/gateway.yaml', import.meta.url));
const jaegerGate = serviceGate('jaeger');
/** The stack's collector: the gateway's queue is on disk (file_storage, which the Jaeger build lacks). */
const collectorGate = serviceGate('otelcol-tool-calls');

/** Longer than the SDK exporter retries one export (its 10 s timeout), plus Jaeger's start. */
const OUTAGE_MS = 12_000;
/** The app's pace: 5 agent runs (20 spans) every 200 ms, for about 25 s, through the outage. */
const PACED_RUNS = 625;
const PACE_MS = 200;

interface Counted {
  agentSpans: Array<{ traceId: string; spanId: string }>;
  toolSpans: Array<{ traceId: string; spanId: string }>;
  exported: { delivered: string[]; failed: string[]; lastError?: string };
}

const scratchDirs: string[] = [];
function badgerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-badger-'));
  scratchDirs.push(dir);
  return dir;
}
const running: Array<{ stop(): Promise<void> }> = [];
function keep<T extends { stop(): Promise<void> }>(server: T): T {
  running.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts the fixture (bounded: killed after 120 s); resolves with its counts when it exits. */
function startApp(service: string, otlpEndpoint: string, args: string[]): { done: Promise<Counted> } {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fixture, '--service', service, ...args], {
    cwd: root,
    env: {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
      // a batch every 500 ms (the SDK's default is 5 s): the outage spans several exports
      OTEL_BSP_SCHEDULE_DELAY: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-5_000);
  });
  const done = new Promise<Counted>((resolve, reject) =>
    child.once('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Counted)
        : reject(new Error(`${service} exited with ${code}\n${stderr}`)),
    ),
  );
  return { done };
}

/** Every span id of `service` that Jaeger's query API has. */
async function spanIdsIn(jaeger: RunningJaeger, service: string): Promise<Set<string>> {
  const traces = await jaeger.traces(service);
  return new Set(traces.flatMap((trace) => trace.spans.map((span) => span.spanID)));
}

/**
 * Waits (bounded) until Jaeger has `expected` spans of `service`, then reads once more for any beyond
 * them: the union of the two reads (a search of Badger can return a trace with some of its spans
 * missing right after a restart, though the read before had them all).
 */
async function settledSpanIds(jaeger: RunningJaeger, service: string, expected: number): Promise<Set<string>> {
  const found = await waitFor(
    `${expected} spans of ${service} in Jaeger`,
    async () => {
      const ids = await spanIdsIn(jaeger, service);
      if (ids.size < expected) throw new Error(`${ids.size} so far`);
      return ids;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  return new Set([...found, ...(await spanIdsIn(jaeger, service))]);
}

/** The traces as the query API gives them, comparable: per trace, its spans' ids, parents, names and tags, sorted. */
function comparable(traces: readonly JaegerTrace[]) {
  return traces
    .map((trace) => ({
      traceID: trace.traceID,
      spans: trace.spans
        .map((span) => ({
          spanID: span.spanID,
          operationName: span.operationName,
          references: span.references,
          tags: [...span.tags].sort((a, b) => a.key.localeCompare(b.key)),
          logs: span.logs.length,
        }))
        .sort((a, b) => a.spanID.localeCompare(b.spanID)),
    }))
    .sort((a, b) => a.traceID.localeCompare(b.traceID));
}

/** Ends `jaeger` (SIGTERM, as `docker compose restart` does), waits `ms`, and starts it again on the same ports and directory. */
async function restart(
  binary: string,
  jaeger: RunningJaeger,
  options: { badgerDir?: string; configFile?: string },
  ms: number,
): Promise<RunningJaeger> {
  await jaeger.stop();
  if (await answers(`${jaeger.queryUrl}/api/services`)) throw new Error('Jaeger still answers after its stop');
  await sleep(ms);
  return keep(await startJaeger(binary, { ...options, ports: jaeger.ports }));
}

// concurrent: each test has its own servers, and most of their time is the app's pace and the outage
describe.concurrent('Jaeger restarts, on the real Jaeger v2', () => {
  it('keeps every trace across a restart with the Badger storage of the compose stack (the memory store keeps none)', async (ctx) => {
    const { expect } = ctx;
    const binary = jaegerGate.path ?? skipOrFail(ctx, jaegerGate);
    const service = 'tool-calls-restart-badger';
    const dir = badgerDir();
    const jaeger = keep(await startJaeger(binary, { badgerDir: dir }));
    const counted = await startApp(service, jaeger.otlpHttpUrl, ['--runs', '20']).done;
    const ended = counted.agentSpans.length + counted.toolSpans.length;
    expect(ended).toBe(80);
    await settledSpanIds(jaeger, service, ended);
    const before = await jaeger.traces(service);
    expect(before).toHaveLength(20);

    const again = await restart(binary, jaeger, { badgerDir: dir }, 0);
    const after = await again.traces(service);
    // the same traces, span for span (ids, parents, names, tags, logs), from the query API of the new process
    expect(comparable(after)).toEqual(comparable(before));
    expect(await again.services()).toContain(service);

    // the memory store, as a control: the same run, the same restart, nothing left
    const memory = keep(await startJaeger(binary));
    await startApp(`${service}-memory`, memory.otlpHttpUrl, ['--runs', '20']).done;
    await settledSpanIds(memory, `${service}-memory`, 80);
    const restartedMemory = await restart(binary, memory, {}, 0);
    expect(await restartedMemory.traces(`${service}-memory`)).toEqual([]);
  }, 120_000);

  it('loses, sent direct, exactly the spans of the exports the SDK exporter gave up on after its retries', async (ctx) => {
    const { expect } = ctx;
    const binary = jaegerGate.path ?? skipOrFail(ctx, jaegerGate);
    const service = 'tool-calls-restart-direct';
    const dir = badgerDir();
    const jaeger = keep(await startJaeger(binary, { badgerDir: dir }));
    const app = startApp(service, jaeger.otlpHttpUrl, ['--runs', String(PACED_RUNS), '--pace-ms', String(PACE_MS)]);
    await waitFor(
      'the app delivering spans',
      async () => ((await spanIdsIn(jaeger, service)).size > 0 ? true : undefined),
      {
        timeoutMs: 30_000,
      },
    );
    const restarted = await restart(binary, jaeger, { badgerDir: dir }, OUTAGE_MS);
    const counted = await app.done;

    const ended = [...counted.agentSpans, ...counted.toolSpans].map((span) => span.spanId);
    const { delivered, failed } = counted.exported;
    expect(ended).toHaveLength(PACED_RUNS * 4);
    // every span ended went into an export: none dropped by the batch processor's queue (2048)
    expect(new Set([...delivered, ...failed])).toEqual(new Set(ended));
    const stored = await settledSpanIds(restarted, service, delivered.length);
    // what Jaeger has is what the exporter delivered; what it lacks is what the exporter gave up on
    expect(stored).toEqual(new Set(delivered));
    expect(ended.filter((id) => !stored.has(id)).sort()).toEqual([...failed].sort());
    console.log(
      `direct, Jaeger down ${OUTAGE_MS / 1000} s: ${ended.length} spans ended, ${stored.size} in Jaeger, ` +
        `${failed.length} lost (the exports given up after the exporter's retries; last error: ${counted.exported.lastError})`,
    );
  }, 150_000);

  it('loses nothing through the gateway collector: its sending queue and retries hold the spans while Jaeger restarts', async (ctx) => {
    const { expect } = ctx;
    const binary = jaegerGate.path ?? skipOrFail(ctx, jaegerGate);
    const collector = collectorGate.path ?? skipOrFail(ctx, collectorGate);
    const queueDir = badgerDir();
    const service = 'tool-calls-restart-gateway';
    const dir = badgerDir();
    const jaeger = keep(await startJaeger(binary, { badgerDir: dir }));
    const ports = {
      COLLECTOR_OTLP_HTTP_PORT: await freePort(),
      COLLECTOR_OTLP_GRPC_PORT: await freePort(),
      COLLECTOR_HEALTH_PORT: await freePort(),
      COLLECTOR_METRICS_PORT: await freePort(),
    };
    const gateway: ServerProcess = keep(
      await startServerProcess('the gateway collector', collector, [`--config=${gatewayConfig}`], {
        env: {
          COLLECTOR_LISTEN_HOST: '127.0.0.1',
          COLLECTOR_STORAGE_DIR: queueDir,
          ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
          COLLECTOR_BACKEND_OTLP_ENDPOINT: jaeger.otlpHttpUrl,
          // waits shortened, and every trace kept (this test is about loss, not sampling)
          COLLECTOR_DECISION_WAIT: '1s',
          COLLECTOR_SAMPLING_PERCENTAGE: '100',
          COLLECTOR_RETRY_INITIAL_INTERVAL: '1s',
          OTEL_TRACES_EXPORTER: 'none',
        },
        ready: () => answers(`http://127.0.0.1:${ports.COLLECTOR_HEALTH_PORT}/status`),
      }),
    );
    const app = startApp(service, `http://127.0.0.1:${ports.COLLECTOR_OTLP_HTTP_PORT}`, [
      '--runs',
      String(PACED_RUNS),
      '--pace-ms',
      String(PACE_MS),
    ]);
    await waitFor(
      'spans through the gateway',
      async () => ((await spanIdsIn(jaeger, service)).size > 0 ? true : undefined),
      {
        timeoutMs: 30_000,
      },
    );
    const restarted = await restart(binary, jaeger, { badgerDir: dir }, OUTAGE_MS);
    const counted = await app.done;

    const ended = [...counted.agentSpans, ...counted.toolSpans].map((span) => span.spanId);
    expect(ended).toHaveLength(PACED_RUNS * 4);
    // the gateway was up: the app's exporter delivered every span to it
    expect(counted.exported.failed).toEqual([]);
    const stored = await settledSpanIds(restarted, service, ended.length);
    expect(stored).toEqual(new Set(ended)); // 0 lost, none extra
    console.log(
      `through the gateway, Jaeger down ${OUTAGE_MS / 1000} s: ${ended.length} spans ended, ${stored.size} in Jaeger, ${ended.length - stored.size} lost`,
    );
    expect(gateway.exited()).toBe(false);
  }, 150_000);
});
