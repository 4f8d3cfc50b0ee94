/**
 * The scale-out tier (docker-compose.otel.yml's `scale-out` profile, `npm run stack -- --samplers 3`): the
 * stack's collector sends its traces to a load balancer that routes each by its trace ID to one of three
 * gateways (tail samplers), which send to Jaeger; every hop queues on disk. Several agent processes, each with
 * an MCP server process (traces that cross processes), send through it:
 * - the gateways' decisions add up to the traces sent, so no trace was split between gateways, and every
 *   trace with an error is in Jaeger whole;
 * - a gateway killed with -9 and started again: the traces that started while it was down arrive whole;
 *   only those it held awaiting a decision may be lost, and their number is bounded and reported;
 * - the load balancer killed with -9 and started again, while a gateway is down and its traces wait in the
 *   load balancer's queue: nothing it had acknowledged is lost;
 * - a gateway added mid-run (the load balancer started again with four): about a quarter of the routes move;
 *   a trace in flight at the change may be split between two gateways, each deciding on its half (an error
 *   trace then has its failing half kept and the other only by chance): only those, counted and reported.
 * The gateways wait 15 s for a trace's spans, longer than the outages here: a span held back by a
 * restart (the collector's retries) still meets its trace before the decision.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jaegerClient } from '../helpers/jaeger.js';
import { skipOrFail, waitFor } from '../helpers/prometheus.js';
import type { LedgerSpan } from './fixtures/span-ledger.js';
import { stackGate, startTestStack, type TestStack } from './stack-gate.js';

const gate = stackGate();
const fixture = fileURLToPath(new URL('./fixtures/mcp-traced-agent.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const DECISION_WAIT_S = 15;

/** Runs `agents` agent processes (each with its MCP server) through the stack; every span they ended. */
function runAgents(
  stack: TestStack,
  agents: readonly string[],
  { runs, paceMs = 0 }: { runs: number; paceMs?: number },
): Promise<LedgerSpan[]> {
  return Promise.all(
    agents.map(
      (service) =>
        new Promise<LedgerSpan[]>((resolve, reject) => {
          execFile(
            process.execPath,
            ['--import', 'tsx', fixture, '--runs', String(runs), '--pace-ms', String(paceMs), '--service', service],
            {
              cwd: root,
              env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: stack.endpoints.otlpHttp },
              timeout: 120_000,
            },
            (error, stdout, stderr) =>
              error
                ? reject(new Error(`${service}: ${error.message}\n${stderr}`))
                : resolve((JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { spans: LedgerSpan[] }).spans),
          );
        }),
    ),
  ).then((all) => all.flat());
}

/** A gateway's tail-sampling counts so far, from its own metrics. */
async function decisionsOf(stack: TestStack, gateway: string): Promise<{ newTraces: number; decided: number }> {
  const text = await (await fetch(`http://${stack.address(gateway, 8888)}/metrics`)).text();
  const sum = (metric: string) =>
    [...text.matchAll(new RegExp(`^${metric}(?:_total)?(?:\\{[^}]*\\})? (\\d+)`, 'gm'))].reduce(
      (total, match) => total + Number(match[1]),
      0,
    );
  return {
    newTraces: sum('otelcol_processor_tail_sampling_new_trace_id_received'),
    decided: sum('otelcol_processor_tail_sampling_global_count_traces_sampled'),
  };
}

async function allDecisions(stack: TestStack, gateways: readonly string[]) {
  const each = await Promise.all(gateways.map((gateway) => decisionsOf(stack, gateway)));
  return {
    each,
    newTraces: each.reduce((sum, d) => sum + d.newTraces, 0),
    decided: each.reduce((sum, d) => sum + d.decided, 0),
  };
}

/** The traces with an error span, by trace id, with the ids of every span the processes ended in them. */
function errorTraces(
  spans: readonly LedgerSpan[],
): Map<string, { spanIds: Set<string>; startMs: number; endMs: number }> {
  const failed = new Set(spans.filter((span) => span.failed).map((span) => span.traceId));
  const traces = new Map<string, { spanIds: Set<string>; startMs: number; endMs: number }>();
  for (const span of spans) {
    if (!failed.has(span.traceId)) continue;
    const trace = traces.get(span.traceId) ?? { spanIds: new Set(), startMs: span.startMs, endMs: span.startMs };
    trace.spanIds.add(span.spanId);
    trace.startMs = Math.min(trace.startMs, span.startMs);
    trace.endMs = Math.max(trace.endMs, span.startMs);
    traces.set(span.traceId, trace);
  }
  return traces;
}

/**
 * The error traces sent that are not whole in Jaeger (a span missing, or the trace), once Jaeger has settled:
 * waits (bounded) until every gateway has decided (the decision wait) and Jaeger's count stops changing.
 */
async function notWholeInJaeger(stack: TestStack, agents: readonly string[], spans: readonly LedgerSpan[]) {
  const expected = errorTraces(spans);
  const jaeger = jaegerClient(stack.endpoints.jaeger);
  // no decision before the decision wait after a trace's last span (and the hops' batching and retries)
  const lastSpan = Math.max(...spans.map((span) => span.startMs));
  const decidedBy = lastSpan + (DECISION_WAIT_S + 8) * 1000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, decidedBy - Date.now())));
  let last = -1;
  let stable = 0;
  const stored = new Map<string, Set<string>>();
  await waitFor(
    'Jaeger to settle',
    async () => {
      stored.clear();
      for (const agent of agents) {
        for (const trace of await jaeger.traces(agent)) {
          stored.set(trace.traceID, new Set(trace.spans.map((span) => span.spanID)));
        }
      }
      const count = [...stored.values()].reduce((sum, ids) => sum + ids.size, 0);
      stable = count === last ? stable + 1 : 0;
      last = count;
      // five readings in a row the same
      return stable >= 5 ? true : undefined;
    },
    { timeoutMs: (DECISION_WAIT_S + 60) * 1000, intervalMs: 1_000 },
  );
  const broken = [...expected].filter(([traceId, trace]) => {
    const found = stored.get(traceId);
    return !found || [...trace.spanIds].some((id) => !found.has(id));
  });
  return { expected, broken: new Map(broken) };
}

describe('the scale-out tier: a load balancer by trace ID in front of three tail-sampling gateways', () => {
  let stack: TestStack | undefined;

  beforeAll(async () => {
    if (!gate.path) return;
    stack = await startTestStack({
      samplers: 3,
      serviceEnv: (service) =>
        service.startsWith('gateway-') ? { COLLECTOR_DECISION_WAIT: `${DECISION_WAIT_S}s` } : undefined,
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.dispose();
  });

  it('decides each trace once, in one gateway (no trace split), and has every trace with an error whole in Jaeger', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const gateways = ['gateway-1', 'gateway-2', 'gateway-3'];
    const before = await allDecisions(stack, gateways);
    const agents = ['scale-agent-1', 'scale-agent-2', 'scale-agent-3'];
    const spans = await runAgents(stack, agents, { runs: 20 });
    const traces = new Set(spans.map((span) => span.traceId)).size;
    const after = await waitFor(
      'every trace decided',
      async () => {
        const now = await allDecisions(stack!, gateways);
        return now.decided - before.decided >= traces ? now : undefined;
      },
      { timeoutMs: (DECISION_WAIT_S + 30) * 1000, intervalMs: 1_000 },
    );
    // a trace split between gateways would be new to each, and decided by each
    expect(after.newTraces - before.newTraces).toBe(traces);
    expect(after.decided - before.decided).toBe(traces);
    // spread over the three
    for (const [i, gateway] of after.each.entries()) {
      expect(gateway.newTraces - before.each[i]!.newTraces, gateways[i]).toBeGreaterThan(0);
    }
    const { expected, broken } = await notWholeInJaeger(stack, agents, spans);
    expect(expected.size).toBe(30); // the odd runs of each agent
    expect([...broken.keys()]).toEqual([]);
  }, 180_000);

  it('a gateway killed with -9 and started again: the traces that started while it was down arrive whole; those it held may be lost, bounded', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const agents = ['kill-gateway-agent-1', 'kill-gateway-agent-2'];
    const running = runAgents(stack, agents, { runs: 100, paceMs: 150 });
    // once the first traces have reached the gateways (the apps' batch delay, 5 s, and the collector's batch)
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const killedAt = Date.now();
    await stack.services.get('gateway-2')!.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await stack.restart('gateway-2');
    const spans = await running;
    const { expected, broken } = await notWholeInJaeger(stack, agents, spans);
    // what gateway-2 held awaiting a decision when it died: traces that started within the decision wait before
    const mayBeLost = [...expected].filter(([, trace]) => trace.startMs <= killedAt + 1_000);
    const sentWhileDown = [...expected].filter(([, trace]) => trace.startMs > killedAt + 1_000);
    console.log(
      `gateway-2 killed: ${expected.size} error traces sent, ${broken.size} not whole in Jaeger, all of them among the ` +
        `${mayBeLost.length} that started before it died (${sentWhileDown.length} started after: all whole)`,
    );
    expect(sentWhileDown.length).toBeGreaterThan(10);
    for (const [traceId] of sentWhileDown) expect(broken.has(traceId), `trace ${traceId}`).toBe(false);
    for (const [traceId] of broken) expect(mayBeLost.map(([id]) => id)).toContain(traceId);
    // a third of the traces are gateway-2's: at most those of them in flight
    expect(broken.size).toBeLessThanOrEqual(mayBeLost.length);
  }, 240_000);

  it('the load balancer killed with -9 and started again loses nothing it had acknowledged', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const agents = ['kill-lb-agent-1', 'kill-lb-agent-2'];
    const running = runAgents(stack, agents, { runs: 100, paceMs: 150 });
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    // gateway-3 down: the load balancer acknowledges its traces and keeps them in its queue on disk...
    const gatewayKilledAt = Date.now();
    await stack.services.get('gateway-3')!.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // ...when it is killed itself
    await stack.services.get('load-balancer')!.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await stack.restart('load-balancer');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await stack.restart('gateway-3');
    const spans = await running;
    const { expected, broken } = await notWholeInJaeger(stack, agents, spans);
    // what gateway-3 held in memory when it died may be lost (the previous test); everything after is whole:
    // the load balancer's queue kept what it had taken, through its own kill
    const afterGatewayDied = [...expected].filter(([, trace]) => trace.startMs > gatewayKilledAt + 1_000);
    console.log(
      `gateway-3 then the load balancer killed: ${expected.size} error traces sent, ${afterGatewayDied.length} started ` +
        `after gateway-3 died, ${broken.size} not whole in Jaeger (none of those)`,
    );
    expect(afterGatewayDied.length).toBeGreaterThan(30);
    for (const [traceId] of afterGatewayDied) expect(broken.has(traceId), `trace ${traceId}`).toBe(false);
  }, 240_000);

  it('a gateway added mid-run: a quarter of the routes move to it; only traces in flight at the change may be split', async (ctx) => {
    if (!stack) return skipOrFail(ctx, gate);
    const agents = ['add-gateway-agent-1', 'add-gateway-agent-2'];
    const running = runAgents(stack, agents, { runs: 60, paceMs: 150 });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const changeFrom = Date.now();
    const added = await stack.addSampler();
    const changeTo = Date.now();
    const spans = await running;
    const { expected, broken } = await notWholeInJaeger(stack, agents, spans);
    // in flight at the change: started before the old load balancer stopped and ended after the new one took over
    // (the collector's batches and retries hold a span up to about 6 s)
    const inFlight = [...expected].filter(
      ([, trace]) => trace.startMs < changeTo + 6_000 && trace.endMs > changeFrom - 1_000,
    );
    console.log(
      `${added} added: ${expected.size} error traces sent, ${inFlight.length} in flight at the change, ` +
        `${broken.size} of them not whole in Jaeger (split)`,
    );
    expect(added).toBe('gateway-4');
    expect((await decisionsOf(stack, added)).newTraces).toBeGreaterThan(0);
    for (const [traceId] of broken)
      expect(
        inFlight.map(([id]) => id),
        `trace ${traceId}`,
      ).toContain(traceId);
  }, 240_000);
});
