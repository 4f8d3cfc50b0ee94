/**
 * The MCP server status rule (the caller's mistakes, -32601/-32602, are no errors of the server) on a
 * real Prometheus, with the stack's rules and dashboard: two real MCP servers in this process, one per
 * SDK line, each with its own service and Prometheus exporter, answer a client that calls their tool,
 * a tool they do not have, and a server without tools. What the server's own metric says
 * (mcp.server.operation.duration: the status code, no error.type) and what the alerts and panels read
 * (tool_call.errors with source model, gen_ai.execute_tool.duration: the model's bad calls, never a
 * tool's failure) are checked where an operator reads them. On each Prometheus there is
 * (service-binaries.ts): the Prometheus 3 that scripts/services.sh builds, and Debian's 2.42.
 */
import { Client as Client2, InMemoryTransport as InMemoryTransport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransport1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServer2 } from '@modelcontextprotocol/server';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentServer } from 'otel-tool-calls/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freePort } from '../helpers/free-port.js';
import {
  type PrometheusSeries,
  type RunningPrometheus,
  skipOrFail,
  startPrometheus,
  waitFor,
} from '../helpers/prometheus.js';
import { binaryRows } from '../helpers/service-binaries.js';
import { dashboard, interpolate, rulesFile } from './dashboard.js';

const prometheusBinaries = binaryRows('prometheus', { binary: 'prometheus', package: 'prometheus' });

const LINES = [
  {
    service: 'mcp-weather-1x',
    server: () => new McpServer1({ name: 'weather', version: '1.0.0' }),
    client: () => new Client1({ name: 'agent', version: '1.0.0' }),
    linkedPair: () => InMemoryTransport1.createLinkedPair(),
  },
  {
    service: 'mcp-weather-2x',
    server: () => new McpServer2({ name: 'weather', version: '1.0.0' }),
    client: () => new Client2({ name: 'agent', version: '1.0.0' }),
    linkedPair: () => InMemoryTransport2.createLinkedPair(),
  },
] as const;

interface Server {
  registerTool(name: string, config: object, handler: (args: { city: string }) => unknown): unknown;
  registerPrompt(name: string, config: object, get: () => unknown): unknown;
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

interface Client {
  callTool(params: { name: string; arguments: object }): Promise<unknown>;
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

/** One SDK line's app: its servers (one with a tool, one without), its exporter, and a client of each. */
async function startApp(line: (typeof LINES)[number]) {
  const port = await freePort();
  const exporter = await new Promise<PrometheusExporter>((resolve, reject) => {
    const created: PrometheusExporter = new PrometheusExporter({ host: '127.0.0.1', port }, (error) =>
      error ? reject(error) : resolve(created),
    );
  });
  const resource = resourceFromAttributes({ 'service.name': line.service });
  const meterProvider = new MeterProvider({ resource, readers: [exporter] });
  const listener = new OpenTelemetryToolCallListener({
    tracerProvider: new TracerProvider({ resource }),
    meterProvider,
  });
  const withTool = line.server() as unknown as Server;
  withTool.registerTool('weather', { inputSchema: { city: z.string() } }, ({ city }) => ({
    content: [{ type: 'text', text: `sunny in ${city}` }],
  }));
  const withoutTools = line.server() as unknown as Server;
  withoutTools.registerPrompt('greet', { description: 'Greets' }, () => ({ messages: [] }));
  const clients: Client[] = [];
  for (const server of [withTool, withoutTools]) {
    instrumentServer(server as never, listener);
    const client = line.client() as unknown as Client;
    const [clientTransport, serverTransport] = line.linkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    clients.push(client);
  }
  const [toTool, toNone] = clients as [Client, Client];
  const settled = (call: Promise<unknown>) => call.catch(() => undefined);
  return {
    target: `127.0.0.1:${port}`,
    /** One turn: four good calls, a tool the server does not have, a server with no tool at all. */
    async turn() {
      for (let i = 0; i < 4; i += 1) await toTool.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
      await settled(toTool.callTool({ name: 'wheather', arguments: { city: 'Oslo' } }));
      await settled(toNone.callTool({ name: 'weather', arguments: { city: 'Oslo' } }));
    },
    async stop() {
      for (const client of clients) await client.close();
      await meterProvider.shutdown();
    },
  };
}

type App = Awaited<ReturnType<typeof startApp>>;

/** The labels of each series, as `key=value` joined (a missing label is not there), sorted. */
function labelsOf(series: readonly PrometheusSeries[], keys: readonly string[]): string[] {
  return series
    .map((s) =>
      keys
        .filter((key) => s.metric[key] !== undefined)
        .map((key) => `${key}=${s.metric[key]}`)
        .join(' '),
    )
    .sort();
}

describe.each(prometheusBinaries)('the MCP server status rule on a real Prometheus: $label', ({ gate }) => {
  let prometheus: RunningPrometheus | undefined;
  const apps: App[] = [];
  let running = true;
  let workload: Promise<void> | undefined;

  beforeAll(async () => {
    if (!gate.path) return;
    for (const line of LINES) apps.push(await startApp(line));
    // calls all along, so that every rate has samples to compare
    workload = (async () => {
      while (running) {
        for (const app of apps) await app.turn();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    prometheus = await startPrometheus(gate.path, {
      targets: apps.map((app) => app.target),
      ruleFiles: [rulesFile],
    });
  }, 90_000);

  afterAll(async () => {
    running = false;
    await workload;
    await prometheus?.stop();
    for (const app of apps) await app.stop();
  });

  /** `expr` with the service of each series (from target_info), once it has `count` series. */
  const byService = (expr: string) => `(${expr}) * on (job, instance) group_left (service_name) target_info`;
  const queryUntil = (what: string, expr: string, count: number) =>
    waitFor(what, async () => {
      const series = await prometheus!.query(expr);
      return series.length >= count ? series : undefined;
    });

  it('mcp.server.operation.duration has the refusals’ rpc.response.status_code and no error.type, on both SDK lines: 2.x’s unknown tool -32602, a server without tools -32601; 1.x’s unknown tool is an isError answer, tool_error', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, gate);
    const series = await queryUntil(
      'the tools/call series of both servers',
      byService(
        'sum by (job, instance, gen_ai_tool_name, error_type, rpc_response_status_code) (mcp_server_operation_duration_count{mcp_method_name="tools/call"})',
      ),
      6,
    );
    expect(labelsOf(series, ['service_name', 'gen_ai_tool_name', 'error_type', 'rpc_response_status_code'])).toEqual([
      'service_name=mcp-weather-1x gen_ai_tool_name=_unknown error_type=tool_error',
      'service_name=mcp-weather-1x gen_ai_tool_name=_unknown rpc_response_status_code=-32601',
      'service_name=mcp-weather-1x gen_ai_tool_name=weather',
      'service_name=mcp-weather-2x gen_ai_tool_name=_unknown rpc_response_status_code=-32601',
      'service_name=mcp-weather-2x gen_ai_tool_name=_unknown rpc_response_status_code=-32602',
      'service_name=mcp-weather-2x gen_ai_tool_name=weather',
    ]);
  }, 60_000);

  it('the alerts read the refusals as the model’s bad calls: the model error ratio of _unknown (ToolCallModelErrorRatioHigh) is a third of the calls, and no tool error ratio (ToolCallErrorRatioHigh) has them', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, gate);
    const modelRatio = await queryUntil(
      'the model error ratio of _unknown',
      'job_tool:tool_call_model_errors:ratio_rate5m{gen_ai_tool_name="_unknown"}',
      1,
    );
    // two of the six calls of a turn, on each server
    const ratio = Number(modelRatio[0]?.value?.[1]);
    expect(ratio).toBeGreaterThan(0.2);
    expect(ratio).toBeLessThan(0.5);
    // the tools' own failures: none (the ratio has no series where no tool failed), so nothing to page on
    expect(await prometheus.query('job_tool:tool_call_errors:ratio_rate5m')).toEqual([]);
    const paging = (await prometheus.alertingRules()).find((rule) => rule.name === 'ToolCallErrorRatioHigh');
    expect([paging?.health, paging?.alerts ?? []]).toEqual(['ok', []]);
  }, 60_000);

  it('the dashboard shows them in "Tool calls the model got wrong" by error.type, per service (SDK line), and never in the tools’ own errors nor in their error ratio', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, gate);
    const panelQuery = (title: string) => {
      const expr = dashboard.panels.find((panel) => panel.title === title)?.targets?.[0]?.expr;
      if (expr === undefined) throw new Error(`no panel "${title}"`);
      return interpolate(expr, { service: '.*', agent: '.*', tool: '.*' });
    };
    const wrong = await queryUntil(
      'the calls the model got wrong, of both services',
      panelQuery('Tool calls the model got wrong'),
      4,
    );
    expect(labelsOf(wrong, ['service_name', 'gen_ai_tool_name', 'error_type'])).toEqual([
      'service_name=mcp-weather-1x gen_ai_tool_name=_unknown error_type=-32601',
      'service_name=mcp-weather-1x gen_ai_tool_name=_unknown error_type=tool_error',
      'service_name=mcp-weather-2x gen_ai_tool_name=_unknown error_type=-32601',
      'service_name=mcp-weather-2x gen_ai_tool_name=_unknown error_type=-32602',
    ]);
    expect(await prometheus.query(panelQuery('Top tool error types'))).toEqual([]);
    const toolErrorRatio = await prometheus.query(panelQuery('Tool error ratio by tool'));
    expect(
      toolErrorRatio.map((s) => `${s.metric.service_name} ${s.metric.gen_ai_tool_name} ${s.value?.[1]}`).sort(),
    ).toEqual(['mcp-weather-1x weather 0', 'mcp-weather-2x weather 0']);
  }, 60_000);
});
