import { ATTR_ERROR_TYPE, ATTR_NETWORK_TRANSPORT } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AppRun, buildPackageIfMissing, type ExportedSpan, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/*
 * MCP servers that are no McpServer, under register: fastmcp (it builds a low-level Server per session
 * inside start() and answers tools/call with its own handler) and servers written on the low-level
 * Server of each SDK line. Each is driven by the SDK's own client, over stdio (the server in a process
 * of its own, started by the client as an agent starts its tool servers, both under register) and over
 * Streamable HTTP on 127.0.0.1 (server and client in one process).
 */

// OTLP/JSON span kinds are the proto enum: 2 server, 3 client
const SERVER = 2;
const CLIENT = 3;

function toolCall(run: AppRun, kind: number, tool: string): ExportedSpan[] {
  return toolSpans(run).filter((span) => span.kind === kind && span.attributes[ATTR_GEN_AI_TOOL_NAME] === tool);
}

/** The server's tools/call span is the child of the client's, in one trace: one span per side. */
function expectOneTrace(run: AppRun, tool: string): ExportedSpan {
  const [client, ...moreClients] = toolCall(run, CLIENT, tool);
  const [server, ...moreServers] = toolCall(run, SERVER, tool);
  expect([moreClients, moreServers]).toEqual([[], []]);
  expect(server?.name).toBe(`tools/call ${tool}`);
  expect(server?.traceId).toBe(client?.traceId);
  expect(server?.parentSpanId).toBe(client?.spanId);
  return server as ExportedSpan;
}

describe('zero-code: MCP servers that are no McpServer, over stdio', () => {
  it.each([
    ['mcp-fastmcp-stdio.mjs', '1.x'],
    ['mcp-low-level-stdio.mjs', '1.x'],
    ['mcp-low-level-stdio.mjs', '2.x'],
  ])(
    '%s (SDK %s): its tools/call handler is one SERVER span per call, the child of the client span, with its session',
    async (server, sdk) => {
      const run = await runUnderRegister('mcp-stdio-client.mjs', {
        // which server the client starts, and on which SDK line (test variables, not the app's)
        env: { MCP_SERVER_FIXTURE: server, MCP_SDK: sdk },
        timeoutMs: 60_000,
      });
      expect(run.stderr).toBe('');
      expect([run.code, run.stdout]).toEqual([0, 'weather: sunny in Oslo\n']);

      const span = expectOneTrace(run, 'weather');
      expect(span.attributes[ATTR_NETWORK_TRANSPORT]).toBe('pipe');
      expect(span.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
      // every other operation of the server too: the initialize exchange, a SERVER span each
      const serverOperations = run.spans.filter((found) => found.kind === SERVER).map((found) => found.name);
      expect(serverOperations).toEqual(expect.arrayContaining(['initialize', 'notifications/initialized']));
      const metric = (name: string) => run.metrics.find((found) => found.name === name);
      expect(metric(METRIC_MCP_SERVER_OPERATION_DURATION)?.points).toContainEqual(
        expect.objectContaining({ [ATTR_GEN_AI_TOOL_NAME]: 'weather' }),
      );
      expect(metric(METRIC_MCP_SERVER_SESSION_DURATION)?.total).toBe(1);
    },
    90_000,
  );
});

describe('zero-code: MCP servers that are no McpServer, over Streamable HTTP', () => {
  it.each(['fastmcp', '1.x', '2.x'])(
    "%s: one SERVER span per call, the child of the client span; an unknown tool is the model's mistake",
    async (server) => {
      const run = await runUnderRegister('mcp-low-level-http.mjs', { env: { MCP_SERVER: server }, timeoutMs: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // fastmcp's HTTP layer (mcp-proxy) says when it opens a stream: the app's own lines are unchanged
      expect(run.stdout).toContain('weather: sunny in Oslo\nmadeup: error -32601\n');

      expect(expectOneTrace(run, 'weather').attributes[ATTR_NETWORK_TRANSPORT]).toBe('tcp');
      const unknown = expectOneTrace(run, 'madeup');
      expect(unknown.attributes).toMatchObject({
        [ATTR_RPC_RESPONSE_STATUS_CODE]: '-32601',
        [ATTR_TOOL_CALL_ERROR_SOURCE]: 'model',
      });
      expect(unknown.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    },
    90_000,
  );
});

describe('zero-code: a low-level MCP server observed once', () => {
  it.each([
    ['low-level', 'a low-level Server the app instrumented itself before connect'],
    ['mcp-server-own', 'an McpServer whose own low-level Server the app instrumented'],
    ['fastmcp-sessions', "fastmcp's sessions, instrumented by the app after start() (register came first)"],
  ])(
    '%s: %s gives one SERVER span per call',
    async (scenario) => {
      const run = await runUnderRegister('mcp-low-level-instrumented.mjs', {
        env: { MCP_CASE: scenario },
        timeoutMs: 60_000,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('weather: sunny in Oslo\n');
      const servers = toolCall(run, SERVER, 'weather');
      expect(servers).toHaveLength(2); // two calls, one span each
      // the app's listener where it came first; register's where it did
      const agent = scenario === 'fastmcp-sessions' ? undefined : 'own-listener';
      for (const span of servers) expect(span.attributes[ATTR_GEN_AI_AGENT_NAME]).toBe(agent);
    },
    90_000,
  );
});
