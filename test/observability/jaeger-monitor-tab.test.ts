/**
 * Jaeger's Monitor tab for the tool calls, from spans alone, on the real servers: the compose stack's
 * observability/jaeger/config.yaml (the span-metrics connector, its Prometheus endpoint, the metrics store
 * reading Prometheus back) on the real Jaeger v2, scraped by the real Prometheus 3 as prometheus.yml's
 * `jaeger-spanmetrics` job does. An app (fixtures/traced-agent.ts, paced, no metrics of its own) sends only
 * spans; Jaeger's metrics API (`/api/metrics/{calls,errors,latencies}`, what the Monitor tab draws) then has
 * each `execute_tool <tool>` operation's call rate, error rate and latency.
 *
 * The test changes a wait only: the connector flushes every second instead of every 15 s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeJaegerPorts, type JaegerMetricFamily, type RunningJaeger, startJaeger } from '../helpers/jaeger.js';
import { type RunningPrometheus, skipOrFail, startPrometheus, waitFor } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/traced-agent.ts', import.meta.url));
const jaegerGate = serviceGate('jaeger');
const prometheusGate = serviceGate('prometheus', { binary: 'prometheus', package: 'prometheus' });
const SERVICE = 'tool-calls-monitor-tab';
const RUNS = 300;
const TOOLS = ['lookup_order', 'charge_card', 'refund'];

/** Runs the fixture to its end: 300 agent runs, 5 every 100 ms; refund takes 25 ms. */
function runApp(otlpEndpoint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fixture,
        '--service',
        SERVICE,
        '--runs',
        String(RUNS),
        '--pace-ms',
        '100',
        '--slow-refund-ms',
        '25',
      ],
      {
        cwd: root,
        env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '500' },
        stdio: 'ignore',
        timeout: 90_000,
      },
    );
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`the app exited with ${code}`))));
  });
}

/** The last point of each operation's series: `{ 'execute_tool refund': 0.35, ... }`. */
function byOperation(family: JaegerMetricFamily): Record<string, number> {
  return Object.fromEntries(
    family.metrics.flatMap((metric) => {
      const operation = metric.labels.find((label) => label.name === 'operation')?.value;
      const values = metric.metricPoints.map((point) => point.gaugeValue?.doubleValue).filter(Number.isFinite);
      return operation && values.length > 0 ? [[operation, values.at(-1) as number]] : [];
    }),
  );
}

describe("Jaeger's Monitor tab for execute_tool operations, from spans alone", () => {
  let prometheus: RunningPrometheus | undefined;
  let jaeger: RunningJaeger | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    if (!jaegerGate.path || !prometheusGate.path) return;
    const ports = await freeJaegerPorts();
    prometheus = await startPrometheus(prometheusGate.path, {
      targets: [`127.0.0.1:${ports.JAEGER_SPANMETRICS_PORT}`],
      jobName: 'jaeger-spanmetrics',
    });
    dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-badger-'));
    jaeger = await startJaeger(jaegerGate.path, {
      badgerDir: dir,
      ports,
      prometheusUrl: prometheus.url,
      env: { JAEGER_SPANMETRICS_FLUSH_INTERVAL: '1s' },
    });
    await runApp(jaeger.otlpHttpUrl);
  }, 120_000);

  afterAll(async () => {
    await jaeger?.stop();
    await prometheus?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const gate = (ctx: { skip(note?: string): never }) => {
    if (!jaegerGate.path) return skipOrFail(ctx, jaegerGate);
    if (!prometheusGate.path) return skipOrFail(ctx, prometheusGate);
  };

  it('counts every span the app ended, per tool and status, in Prometheus', async (ctx) => {
    gate(ctx);
    // the connector's counter as Prometheus scraped it: every run made each tool call once
    const calls = await waitFor(
      `${RUNS} calls of each tool in traces_span_metrics_calls_total`,
      async () => {
        const series = await prometheus!.query(
          `sum by (span_name, status_code) (traces_span_metrics_calls_total{service_name="${SERVICE}", span_kind="SPAN_KIND_INTERNAL"})`,
        );
        const counts = Object.fromEntries(
          series.map((s) => [`${s.metric.span_name} ${s.metric.status_code}`, Number(s.value?.[1])]),
        );
        const perTool = TOOLS.map((tool) =>
          Object.entries(counts)
            .filter(([key]) => key.startsWith(`execute_tool ${tool} `))
            .reduce((sum, [, n]) => sum + n, 0),
        );
        if (perTool.some((n) => n < RUNS)) throw new Error(JSON.stringify(counts));
        return counts;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(calls).toEqual({
      'execute_tool lookup_order STATUS_CODE_UNSET': RUNS,
      'execute_tool charge_card STATUS_CODE_UNSET': RUNS / 2,
      'execute_tool charge_card STATUS_CODE_ERROR': RUNS / 2, // odd runs
      'execute_tool refund STATUS_CODE_UNSET': RUNS - RUNS / 3,
      'execute_tool refund STATUS_CODE_ERROR': RUNS / 3, // every third run
      'invoke_agent support-agent STATUS_CODE_UNSET': RUNS, // the agent runs' spans are INTERNAL too
    });
  }, 90_000);

  it('gives the Monitor tab each tool call rate, error rate and latency through the metrics API', async (ctx) => {
    gate(ctx);
    const params = {
      service: SERVICE,
      spanKind: 'internal', // a tool call's span is INTERNAL (the tab's default kind is server)
      groupByOperation: 'true',
      endTs: String(Date.now() + 5_000),
      lookback: String(5 * 60_000),
      step: '5000',
      ratePer: String(5 * 60_000),
    };
    const calls = await waitFor(
      'a call rate for every tool',
      async () => {
        const rates = byOperation(await jaeger!.metrics('calls', params));
        return TOOLS.every((tool) => (rates[`execute_tool ${tool}`] ?? 0) > 0) ? rates : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
    for (const tool of TOOLS) expect(calls[`execute_tool ${tool}`], tool).toBeGreaterThan(0);

    // error rate = errors / calls: half of charge_card's, a third of refund's; lookup_order never fails
    const errors = byOperation(await jaeger!.metrics('errors', params));
    expect(errors['execute_tool charge_card']).toBeGreaterThan(0.35);
    expect(errors['execute_tool charge_card']).toBeLessThan(0.65);
    expect(errors['execute_tool refund']).toBeGreaterThan(0.2);
    expect(errors['execute_tool refund']).toBeLessThan(0.5);
    expect(errors['execute_tool lookup_order'] ?? 0).toBe(0);

    // p95 in ms: refund sleeps 25 ms (the 10-50 ms bucket), lookup_order returns at once
    const latencies = byOperation(await jaeger!.metrics('latencies', { ...params, quantile: '0.95' }));
    expect(latencies['execute_tool refund']).toBeGreaterThanOrEqual(10);
    expect(latencies['execute_tool refund']).toBeGreaterThan(latencies['execute_tool lookup_order'] ?? Number.NaN);
  }, 90_000);
});
