import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { otlpAttributes, startOtlpReceiver } from '../helpers/otlp-receiver.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const TOOLS = ['fetch_url', 'legacy_crm', 'send_email', 'sql_query', 'web_search'];
/** The shortest latency each simulated tool can have (examples/demo/tools.ts), in ms. */
const MIN_LATENCY_MS: Record<string, number> = {
  fetch_url: 20,
  legacy_crm: 30,
  send_email: 500,
  sql_query: 20,
  web_search: 100,
};
const CHILD_BOUND_MS = 40_000;

/** The demo as `npm start` runs it, bounded: killed (its process group) after CHILD_BOUND_MS. */
function startDemo(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn('npx', ['tsx', 'examples/demo/main.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    detached: true, // its own process group, so that npx, tsx and node all go on a kill
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const kill = () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  };
  const timer = setTimeout(kill, CHILD_BOUND_MS);
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return { exited, kill, output: () => ({ stdout, stderr }) };
}

/** Scrapes until the text has every tool's histogram and the error counter, or the demo ends (bounded). */
async function scrapeWhileRunning(url: string, running: () => boolean): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt < 200 && running(); attempt++) {
    try {
      last = await (await fetch(url)).text();
      const complete =
        TOOLS.every((tool) => last.includes(`gen_ai_tool_name="${tool}"`)) && last.includes('tool_call_errors_total{');
      if (complete) return last;
    } catch {
      // not listening yet: tsx is still starting
    }
    await sleep(200);
  }
  return last;
}

interface TableRow {
  calls: number;
  reported: number;
  rethrown: number;
  p50: number;
  p95: number;
  p99: number;
}

/** The rows of the "Tool calls" table, by tool name. */
function parseToolTable(stdout: string): Map<string, TableRow> {
  const rows = new Map<string, TableRow>();
  for (const line of stdout.split('\n')) {
    const match = /^([a-z_]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/.exec(line);
    if (!match) continue;
    const [calls, reported, rethrown, p50, p95, p99] = match.slice(2).map(Number) as number[];
    rows.set(match[1] as string, { calls, reported, rethrown, p50, p95, p99 } as TableRow);
  }
  return rows;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Parameters<typeof otlpAttributes>[0];
}

describe('examples/demo', () => {
  it('serves per-tool metrics while running, prints the tool table and a span tree, exports nested spans', async () => {
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
        expect(metrics).toMatch(new RegExp(`gen_ai_execute_tool_duration_bucket\\{[^}]*gen_ai_tool_name="${tool}"`));
      }
      expect(metrics).toMatch(
        /tool_call_errors_total\{[^}]*gen_ai_tool_name="legacy_crm"[^}]*tool_call_error_outcome="rethrown"[^}]*\} \d+/,
      );

      // the table: every tool called, the always-failing one failing every time (its policy: rethrow)
      const table = parseToolTable(stdout);
      expect([...table.keys()]).toEqual(TOOLS);
      for (const [tool, row] of table) {
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
      expect(new Set(toolSpans.map((span) => span.name.slice('execute_tool '.length)))).toEqual(new Set(TOOLS));
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
