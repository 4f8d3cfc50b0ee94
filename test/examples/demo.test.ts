import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_TOOL } from '../../examples/demo/model-mistakes.js';
import { type MetricsRow, parseMetricsTable, parseToolTable, startDemo, type TableRow } from '../helpers/demo.js';
import { freePort } from '../helpers/free-port.js';
import { otlpAttributes, startOtlpReceiver } from '../helpers/otlp-receiver.js';

const TOOLS = ['fetch_url', 'legacy_crm', 'send_email', 'sql_query', 'web_search'];
/** Each tool's error policy (examples/demo/agents.ts); `_unknown`, the tools the app does not have, the default. */
const POLICIES: Record<string, string> = {
  _unknown: 'report',
  fetch_url: 'report timeouts, rethrow resets',
  legacy_crm: 'rethrow',
  send_email: 'rethrow',
  sql_query: 'report',
  web_search: 'report',
};
/** The shortest latency each simulated tool can have (examples/demo/tools.ts), in ms. */
const MIN_LATENCY_MS: Record<string, number> = {
  fetch_url: 20,
  legacy_crm: 30,
  send_email: 500,
  sql_query: 20,
  web_search: 100,
};
const durationOf = (tool: string) =>
  new RegExp(`gen_ai_execute_tool_duration_bucket\\{[^}]*gen_ai_tool_name="${tool}"`);

/** Scrapes until the text has every tool's histogram, the error counter and the model's wrong calls, or the demo ends (bounded). */
async function scrapeWhileRunning(url: string, running: () => boolean): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt < 200 && running(); attempt++) {
    try {
      last = await (await fetch(url)).text();
      const complete =
        // a tool's duration sample, not any of its series (an email's approval comes before the email)
        TOOLS.every((tool) => durationOf(tool).test(last)) &&
        last.includes('tool_call_errors_total{') &&
        ['AI_NoSuchToolError', 'AI_InvalidToolInputError'].every((type) => last.includes(`error_type="${type}"`));
      if (complete) return last;
    } catch {
      // not listening yet: tsx is still starting
    }
    await sleep(200);
  }
  return last;
}

/** One sample line of the scraped text with all of `labels`, its value (undefined: no such line). */
function sampleValue(text: string, metric: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (candidate) =>
        candidate.startsWith(`${metric}{`) &&
        Object.entries(labels).every(([name, value]) => candidate.includes(`${name}="${value}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Parameters<typeof otlpAttributes>[0];
}

describe('examples/demo', () => {
  it("serves per-tool metrics while running (the model's wrong calls too), prints them with each tool's policy, the spans' table and a span tree, exports nested spans", async () => {
    const receiver = await startOtlpReceiver();
    const port = await freePort();
    const demo = startDemo(['--duration', '3', '--rate', '5', '--metrics-port', String(port)], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
    });
    let running = true;
    void demo.exited.then(() => {
      running = false;
    });
    try {
      const metrics = await scrapeWhileRunning(`http://127.0.0.1:${port}/metrics`, () => running);
      const code = await demo.exited;
      const { stdout, stderr } = demo.output();
      expect(code, `stderr: ${stderr}\nstdout: ${stdout}`).toBe(0);

      // /metrics, scraped mid-run: the duration histogram of every tool, and the error counter
      for (const tool of TOOLS) {
        expect(metrics).toMatch(durationOf(tool));
      }
      expect(metrics).toMatch(
        /tool_call_errors_total\{[^}]*gen_ai_tool_name="legacy_crm"[^}]*tool_call_error_outcome="rethrown"[^}]*\} \d+/,
      );
      // the calls the model got wrong, counted as the package counts them: a tool the app does not have
      // (`_unknown` in metrics), and arguments the schema refuses; reported to the model (their policy)
      const wrong = { tool_call_error_source: 'model', tool_call_error_outcome: 'reported' };
      expect(
        sampleValue(metrics, 'tool_call_errors_total', {
          ...wrong,
          gen_ai_tool_name: '_unknown',
          error_type: 'AI_NoSuchToolError',
        }),
      ).toBeGreaterThan(0);
      expect(
        sampleValue(metrics, 'tool_call_errors_total', {
          ...wrong,
          gen_ai_tool_name: 'sql_query',
          error_type: 'AI_InvalidToolInputError',
        }),
      ).toBeGreaterThan(0);

      // the metrics table: what the endpoint served at the end, each tool with its error policy
      const metricsTable = parseMetricsTable(stdout);
      expect(Object.fromEntries([...metricsTable].map(([tool, row]) => [tool, row.policy]))).toEqual(POLICIES);
      const unknown = metricsTable.get('_unknown') as MetricsRow;
      expect(unknown.calls).toBeGreaterThan(0);
      expect(unknown).toMatchObject({ reported: unknown.calls, rethrown: 0, wrongByModel: unknown.calls, p95: '-' });
      expect(metricsTable.get('sql_query')?.wrongByModel).toBeGreaterThan(0);
      for (const tool of ['fetch_url', 'legacy_crm', 'send_email', 'web_search']) {
        expect(metricsTable.get(tool)?.wrongByModel, tool).toBe(0);
      }

      // the spans' table: every tool called, the always-failing one failing every time (its policy: rethrow)
      const table = parseToolTable(stdout);
      expect([...table.keys()]).toEqual(TOOLS);
      for (const [tool, row] of table) {
        // the same calls as the metrics, less the model's wrong ones (the tool never ran them)
        const counted = metricsTable.get(tool) as MetricsRow;
        expect(row.calls, tool).toBe(counted.calls - counted.wrongByModel);
        expect(row.reported, tool).toBe(counted.reported - counted.wrongByModel);
        expect(row.rethrown, tool).toBe(counted.rethrown);
        expect(Number(counted.p95), tool).toBeGreaterThan(0);
        expect(row.calls, tool).toBeGreaterThan(0);
        expect(row.reported + row.rethrown, tool).toBeLessThanOrEqual(row.calls);
        // a simulated latency is a lower bound (1 ms of slack for timer rounding)
        expect(row.p50, tool).toBeGreaterThanOrEqual((MIN_LATENCY_MS[tool] as number) - 1);
        expect(row.p50, tool).toBeLessThanOrEqual(row.p95);
        expect(row.p95, tool).toBeLessThanOrEqual(row.p99);
      }
      const crm = table.get('legacy_crm') as TableRow;
      expect(crm).toMatchObject({ reported: 0, rethrown: crm.calls });
      expect(table.get('send_email')?.reported).toBe(0);
      expect(table.get('sql_query')).toMatchObject({ reported: 0, rethrown: 0 });
      expect(table.get('web_search')).toMatchObject({ reported: 0, rethrown: 0 });

      // the span tree: an invoke_agent root, tool and model spans under it, a failed tool marked
      const treeStart = stdout.indexOf('Span tree of one agent run');
      expect(treeStart).toBeGreaterThan(-1);
      const [, root, ...children] = stdout.slice(treeStart).split('\n\n')[0]?.split('\n') ?? [];
      expect(root).toMatch(/^invoke_agent (research|support|billing)-agent\s+\d+ ms {2}at \+0 ms$/);
      expect(children.length).toBeGreaterThan(2);
      for (const line of children)
        expect(line).toMatch(/^[├└]─ (execute_tool [a-z_]+|chat [\w-]+)\s+\d+ ms {2}at \+\d+ ms/);
      expect(children.at(-1)).toMatch(/^└─ chat /); // the model's answer ends every run
      expect(children.some((line) => /^├─ execute_tool [a-z_]+ .*✗ \[\w+, (reported|rethrown)\] \S/.test(line))).toBe(
        true,
      );

      // OTLP: every execute_tool span is a child of an invoke_agent span with the same agent name
      const spans: OtlpSpan[] = receiver.requests
        .filter((request) => request.path === '/v1/traces')
        .flatMap((request) => JSON.parse(request.body.toString('utf8')).resourceSpans)
        .flatMap((resource: { scopeSpans: Array<{ spans: OtlpSpan[] }> }) => resource.scopeSpans)
        .flatMap((scope: { spans: OtlpSpan[] }) => scope.spans);
      const agentsBySpanId = new Map(
        spans
          .filter((span) => span.name.startsWith('invoke_agent '))
          .map((span) => [span.spanId, otlpAttributes(span.attributes)['gen_ai.agent.name']]),
      );
      const toolSpans = spans.filter((span) => span.name.startsWith('execute_tool '));
      // the span of a call to a tool the app does not have keeps the name the model used
      expect(new Set(toolSpans.map((span) => span.name.slice('execute_tool '.length)))).toEqual(
        new Set([...TOOLS, UNKNOWN_TOOL]),
      );
      for (const span of toolSpans) {
        expect(agentsBySpanId.get(span.parentSpanId ?? ''), span.name).toBe(
          otlpAttributes(span.attributes)['gen_ai.agent.name'],
        );
      }
      // and the demo's own account of the delivery matches what the receiver got
      expect(stdout).toContain(`Traces: ${spans.length} spans delivered to ${receiver.url}/v1/traces`);
    } finally {
      demo.kill();
      await demo.exited;
      await receiver.close();
    }
  }, 50_000);
});
