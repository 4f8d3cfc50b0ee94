/**
 * Metrics pushed straight into Prometheus' OTLP receiver, as hosted backends (Grafana Cloud, Mimir) ingest
 * them: replicas and short-lived runs of one app under `otel-tool-calls/register`, their metrics endpoint
 * set to the stack's Prometheus (traces still to the collector). Each process is an instance of its own
 * (its service.instance.id), so their series never overwrite each other: the sums equal the calls made, and
 * every panel of the dashboard has data on the names as OTLP spells them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusClient, skipOrFail, waitFor } from '../helpers/prometheus.js';
import { queriesWithoutData } from './dashboard.js';
import { type RunTally, runPushingApp, totalOf } from './fleet-apps.js';
import { stackGate, startTestStack, type TestStack } from './stack-gate.js';

const gate = stackGate();
const RUNS = 5;

describe('a fleet pushing its metrics straight into Prometheus’ OTLP receiver', () => {
  let stack: TestStack | undefined;
  let fleet: RunTally | undefined;

  beforeAll(async () => {
    if (!gate.path) return;
    stack = await startTestStack();
    const env = { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${stack.endpoints.prometheus}/api/v1/otlp/v1/metrics` };
    const endpoint = stack.endpoints.otlpHttp;
    const runs = await Promise.all([
      ...[1, 2, 3].map(() => runPushingApp({ service: 'hosted-agent', endpoint, env, runForMs: 6_000 })),
      ...[1, 2].map(() => runPushingApp({ service: 'hosted-agent', endpoint, env, turns: 2 })),
    ]);
    fleet = totalOf(runs);
  }, 240_000);

  afterAll(async () => {
    await stack?.dispose();
  });

  it('keeps each process’s series apart (an instance each) and sums them to the calls made', async (ctx) => {
    if (!stack || !fleet) return skipOrFail(ctx, gate);
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    const ran = Object.values(fleet.ran).reduce((a, b) => a + b, 0);
    const failed = Object.values(fleet.failed).reduce((a, b) => a + b, 0);
    const seen = await waitFor('the fleet’s calls in Prometheus', async () => {
      const [calls] = await prometheus.query(
        'sum(gen_ai_execute_tool_duration_seconds_count{job="hosted-agent", tool_call_error_source!="model"})',
      );
      const [errors] = await prometheus.query(
        'sum(tool_call_errors_total{job="hosted-agent", tool_call_error_source!="model"})',
      );
      const found = { calls: Number(calls?.value?.[1]), errors: Number(errors?.value?.[1]) };
      if (found.calls !== ran || found.errors !== failed) throw new Error(JSON.stringify(found));
      return found;
    });
    expect(seen).toEqual({ calls: ran, errors: failed });
    const [instances] = await prometheus.query(
      'count(count by (instance) (gen_ai_execute_tool_duration_seconds_count{job="hosted-agent"}))',
    );
    expect(Number(instances?.value?.[1])).toBe(RUNS);
  });

  it('fills every panel of the dashboard', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    expect(await queriesWithoutData(prometheus, { service: 'hosted-agent', agent: '.*', tool: '.*' })).toEqual([]);
  }, 120_000);
});
