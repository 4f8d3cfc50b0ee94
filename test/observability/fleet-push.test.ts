/**
 * A fleet pushing OTLP through the stack (`startStack`, what `npm run stack` runs: the collector, Jaeger,
 * Prometheus, Alertmanager, with the compose file's configs): replicas and short-lived runs of one app under
 * `otel-tool-calls/register`, with only the variables the README's zero-code line sets. The counts in
 * Prometheus equal the calls made, a run that ends after a few calls shows in increase(), many short runs do
 * not grow the number of series, every panel of the dashboard has data, every trace with an error is in
 * Jaeger, the decision log records are in the collector's output, and the stop leaves no process behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jaegerClient, tag } from '../helpers/jaeger.js';
import { prometheusClient, skipOrFail, waitFor } from '../helpers/prometheus.js';
import { queriesWithoutData } from './dashboard.js';
import { type RunTally, runPushingApp, totalOf } from './fleet-apps.js';
import { stackGate, startTestStack, type TestStack } from './stack-gate.js';

const gate = stackGate();
const CALLS = '{__name__=~"gen_ai_execute_tool_duration(?:_seconds)?_count"';

/** `{tool: value}` of a query by gen_ai_tool_name, values as numbers. */
async function byTool(prometheus: ReturnType<typeof prometheusClient>, expr: string): Promise<Record<string, number>> {
  const series = await prometheus.query(expr);
  return Object.fromEntries(series.map((s) => [s.metric.gen_ai_tool_name ?? '', Number(s.value?.[1])]));
}

describe('a fleet pushing OTLP through the stack (only the README’s variables)', () => {
  let stack: TestStack | undefined;
  let fleet: RunTally | undefined;

  beforeAll(async () => {
    if (!gate.path) return;
    stack = await startTestStack();
    // three replicas stopped by SIGTERM, four runs of two turns that end by themselves, all at once
    const endpoint = stack.endpoints.otlpHttp;
    const runs = await Promise.all([
      ...[1, 2, 3].map(() => runPushingApp({ service: 'support-agent', endpoint, runForMs: 8_000 })),
      ...[1, 2, 3, 4].map(() => runPushingApp({ service: 'support-agent', endpoint, turns: 2 })),
    ]);
    fleet = totalOf(runs);
  }, 240_000);

  afterAll(async () => {
    await stack?.dispose();
  });

  it('counts every call of the replicas and the short-lived runs once: the sums equal the calls made', async (ctx) => {
    if (!stack || !fleet) return skipOrFail(ctx, gate);
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    const ran = `sum by (gen_ai_tool_name) (${CALLS}, job="support-agent", tool_call_error_source!="model"})`;
    const failed =
      'sum by (gen_ai_tool_name) (tool_call_errors_total{job="support-agent", tool_call_error_source!="model"})';
    const rejected =
      'sum by (gen_ai_tool_name) (tool_call_errors_total{job="support-agent", tool_call_error_source="model"})';
    const expected = { ran: fleet.ran, failed: fleet.failed, rejected: fleet.rejected };
    const seen = await waitFor(
      'the fleet’s calls in Prometheus',
      async () => {
        const found = sorted({
          ran: await byTool(prometheus, ran),
          failed: await byTool(prometheus, failed),
          rejected: await byTool(prometheus, rejected),
        });
        if (JSON.stringify(found) !== JSON.stringify(sorted(expected))) throw new Error(JSON.stringify(found));
        return found;
      },
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
    expect(seen).toEqual(sorted(expected));
    expect(fleet.turns).toBeGreaterThan(7); // the replicas ran several turns each
    expect(Object.values(fleet.failed).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('shows the calls in increase() and rate(), the short-lived runs’ included', async (ctx) => {
    if (!stack || !fleet) return skipOrFail(ctx, gate);
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    const increase = await waitFor('increase() of the fleet’s calls', async () => {
      const [series] = await prometheus.query(`sum(increase(${CALLS}, job="support-agent"}[5m]))`);
      const value = Number(series?.value?.[1]);
      return value > 0 ? value : undefined;
    });
    const calls =
      Object.values(fleet.ran).reduce((a, b) => a + b, 0) + Object.values(fleet.rejected).reduce((a, b) => a + b, 0);
    // the series' start ingested as a zero sample: the first calls count too; Prometheus extrapolates a
    // little past the last sample
    expect(increase).toBeGreaterThanOrEqual(calls * 0.99);
    expect(increase).toBeLessThan(calls * 2);
    const [rate] = await prometheus.query(`sum(rate(tool_call_errors_total{job="support-agent"}[5m]))`);
    expect(Number(rate?.value?.[1])).toBeGreaterThan(0);
  });

  it('keeps one series per attribute set however many short runs there are (no series per run)', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    const endpoint = stack.endpoints.otlpHttp;
    const series = `count(${CALLS}, job="nightly-job"})`;
    const calls = `sum(${CALLS}, job="nightly-job"})`;
    const settled = async (expected: number) =>
      waitFor(`${expected} calls of nightly-job`, async () => {
        const [total] = await prometheus.query(calls);
        return Number(total?.value?.[1]) === expected
          ? Number((await prometheus.query(series))[0]?.value?.[1])
          : undefined;
      });
    const first = totalOf(
      await Promise.all([1, 2, 3].map(() => runPushingApp({ service: 'nightly-job', endpoint, turns: 2 }))),
    );
    const callsOf = (tally: RunTally) =>
      Object.values(tally.ran).reduce((a, b) => a + b, 0) + Object.values(tally.rejected).reduce((a, b) => a + b, 0);
    const seriesAfterThree = await settled(callsOf(first));
    const more = totalOf(
      await Promise.all([1, 2, 3, 4, 5, 6].map(() => runPushingApp({ service: 'nightly-job', endpoint, turns: 2 }))),
    );
    const seriesAfterNine = await settled(callsOf(first) + callsOf(more));
    expect(seriesAfterThree).toBeGreaterThan(0);
    expect(seriesAfterNine).toBe(seriesAfterThree);
  }, 180_000);

  it('fills every panel of the dashboard', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const prometheus = prometheusClient(stack.endpoints.prometheus);
    expect(await queriesWithoutData(prometheus, { service: 'support-agent', agent: '.*', tool: '.*' })).toEqual([]);
  }, 120_000);

  it('has every trace with an error in Jaeger, each failed or rejected call an error span of it', async (ctx) => {
    if (!stack || !fleet) return skipOrFail(ctx, gate);
    const jaeger = jaegerClient(stack.endpoints.jaeger);
    const expected = new Set(fleet.errorTraces);
    const found = await waitFor(
      'the fleet’s error traces in Jaeger',
      async () => {
        const traces = await jaeger.traces('support-agent');
        const withError = traces.filter((t) => t.spans.some((span) => tag(span.tags, 'error') === true));
        const ids = new Set(withError.map((t) => t.traceID));
        if ([...expected].some((id) => !ids.has(id))) throw new Error(`${ids.size} of ${expected.size}`);
        return withError;
      },
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
    expect(new Set(found.map((t) => t.traceID))).toEqual(expected);
    const errorToolSpans = found.flatMap((t) =>
      t.spans.filter((span) => span.operationName.startsWith('execute_tool') && tag(span.tags, 'error') === true),
    );
    const failures =
      Object.values(fleet.failed).reduce((a, b) => a + b, 0) + Object.values(fleet.rejected).reduce((a, b) => a + b, 0);
    expect(errorToolSpans.length).toBe(failures);
  });

  it('writes every decision log record to the collector’s output', async (ctx) => {
    if (!stack || !fleet) return skipOrFail(ctx, gate);
    const expected = Object.values(fleet.decisions).reduce((a, b) => a + b, 0);
    const lines = await waitFor('the decisions in collector.log', async () => {
      const found = decisionLines(readFileSync(join(stack!.logsDir, 'collector.log'), 'utf8'), 'support-agent');
      return found.length >= expected ? found : undefined;
    });
    expect(lines).toHaveLength(expected);
    expect(lines.filter((line) => line.includes('outcome=allow'))).toHaveLength(fleet.decisions.allow ?? 0);
  });

  it('stops every process it started', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const pids = [...stack.services.values()].map((service) => service.pid);
    expect(pids).toHaveLength(4);
    await stack.stop();
    for (const pid of pids) expect(() => process.kill(pid!, 0), `process ${pid}`).toThrow(/ESRCH/);
  });
});

/** The same values, keys sorted (Prometheus answers in its own order). */
function sorted<T extends Record<string, Record<string, number>>>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).map(([key, record]) => [key, Object.fromEntries(Object.entries(record).sort())]),
  ) as T;
}

/**
 * The decision log records of `service` in the collector's output (the debug exporter's: a `ResourceLog`
 * line with the resource's attributes, then one line per record with its attributes).
 */
function decisionLines(output: string, service: string): string[] {
  let current: string | undefined;
  const lines: string[] = [];
  for (const line of output.split('\n')) {
    if (line.includes('ResourceLog #')) current = /service\.name=(\S+)/.exec(line)?.[1];
    else if (current === service && line.includes('gen_ai.tool.call.decision.outcome=')) lines.push(line);
  }
  return lines;
}
