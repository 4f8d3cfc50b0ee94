/**
 * The scrape path with more than one process: two replicas of an app that serves its own /metrics (the
 * OpenTelemetry Prometheus exporter, each on its own port), both targets of the stack's scrape job for
 * apps. The sums equal the calls made and every panel of the dashboard has data, on the names as the
 * Prometheus exporter spells them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { prometheusClient, skipOrFail, waitFor } from '../helpers/prometheus.js';
import { queriesWithoutData } from './dashboard.js';
import { type RunTally, totalOf } from './fleet-apps.js';
import { type InstrumentedApp, startInstrumentedApp } from './instrumented-app.js';
import { stackGate, startTestStack, type TestStack } from './stack-gate.js';

const gate = stackGate();

describe('two replicas scraped at their own /metrics', () => {
  let stack: TestStack | undefined;
  let apps: InstrumentedApp[] = [];

  beforeAll(async () => {
    if (!gate.path) return;
    // the stack first, scraping the replicas' ports from their first call (the Prometheus exporter has no
    // series start: a workload done before the first scrape would show no increase)
    const ports = [await freePort(), await freePort()];
    stack = await startTestStack({ appMetricsTargets: ports.map((port) => `127.0.0.1:${port}`) });
    apps = await Promise.all(
      ports.map((port) => startInstrumentedApp({ serviceName: 'scraped-agent', port, turns: 200, maxSeconds: 240 })),
    );
  }, 240_000);

  afterAll(async () => {
    await stack?.dispose();
    await Promise.all(apps.map((app) => app.stop()));
  });

  // while the replicas make their calls: the panels' rates are of the last seconds
  it('fills every panel of the dashboard', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    expect(await queriesWithoutData(prometheus, { service: 'scraped-agent', agent: '.*', tool: '.*' })).toEqual([]);
  }, 120_000);

  it('sums the replicas’ series (an instance each) to the calls made', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const fleet: RunTally = totalOf(await Promise.all(apps.map((app) => app.tally())));
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    const ran = Object.values(fleet.ran).reduce((a, b) => a + b, 0);
    const failed = Object.values(fleet.failed).reduce((a, b) => a + b, 0);
    const rejected = Object.values(fleet.rejected).reduce((a, b) => a + b, 0);
    const seen = await waitFor('the replicas’ calls in Prometheus', async () => {
      const value = async (expr: string) => Number((await prometheus.query(expr))[0]?.value?.[1]);
      const found = {
        ran: await value(
          'sum(gen_ai_execute_tool_duration_count{job="tool-calls-demo", tool_call_error_source!="model"})',
        ),
        failed: await value('sum(tool_call_errors_total{job="tool-calls-demo", tool_call_error_source!="model"})'),
        rejected: await value('sum(tool_call_errors_total{job="tool-calls-demo", tool_call_error_source="model"})'),
      };
      if (found.ran !== ran || found.failed !== failed || found.rejected !== rejected) {
        throw new Error(JSON.stringify(found));
      }
      return found;
    });
    expect(seen).toEqual({ ran, failed, rejected });
    const [instances] = await prometheus.query(
      'count(count by (instance) (gen_ai_execute_tool_duration_count{job="tool-calls-demo"}))',
    );
    expect(Number(instances?.value?.[1])).toBe(2);
  }, 120_000);
});
