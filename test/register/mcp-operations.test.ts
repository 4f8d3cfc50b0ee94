import {
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_CLIENT_SESSION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, sdkLine } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

/** The operations the fixture's client sends, as span names. */
const OPERATIONS = ['initialize', 'notifications/initialized', 'tools/list', 'prompts/get greet', 'ping'];

describe('zero-code: the MCP operations that are not tool calls', () => {
  // the MCP SDK 2.x split packages are not installed on the OpenTelemetry SDK 3.x line (compat/)
  it.each(
    [
      ['mcp-operations.mjs', '1.x'],
      ['mcp-operations-v2.mjs', '2.x'],
    ].filter(([, line]) => sdkLine === 2 || line === '1.x'),
  )(
    '%s (SDK %s): every operation is a CLIENT and a SERVER span, the server span the child of the client span, with their operation durations and both session durations, as with instrumentClient/instrumentServer',
    async (fixture, _line) => {
      const run = await runUnderRegister(fixture);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('tools: weather; greet: 1; weather: sunny in Oslo\n');

      for (const name of [...OPERATIONS, 'tools/call weather']) {
        const sent = run.spans.filter((span) => span.name === name && span.kind === SPAN_KIND_CLIENT);
        const handled = run.spans.filter((span) => span.name === name && span.kind === SPAN_KIND_SERVER);
        expect([name, sent.length, handled.length]).toEqual([name, 1, 1]);
        expect(handled[0]?.traceId).toBe(sent[0]?.traceId);
        expect(handled[0]?.parentSpanId).toBe(sent[0]?.spanId);
        if (name !== 'notifications/initialized') {
          // a request: its JSON-RPC id on both sides, the client's too (zero-code observes its request())
          expect(sent[0]?.attributes[ATTR_JSONRPC_REQUEST_ID]).toMatch(/^\d+$/);
          expect(handled[0]?.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(sent[0]?.attributes[ATTR_JSONRPC_REQUEST_ID]);
        }
      }
      const methods = (metric: string) =>
        run.metrics.find((found) => found.name === metric)?.points.map((point) => point[ATTR_MCP_METHOD_NAME]);
      for (const metric of [METRIC_MCP_CLIENT_OPERATION_DURATION, METRIC_MCP_SERVER_OPERATION_DURATION]) {
        expect(methods(metric)).toEqual(
          expect.arrayContaining(['initialize', 'tools/list', 'prompts/get', 'ping', 'tools/call']),
        );
      }
      for (const metric of [METRIC_MCP_CLIENT_SESSION_DURATION, METRIC_MCP_SERVER_SESSION_DURATION]) {
        expect([metric, run.metrics.find((found) => found.name === metric)?.total]).toEqual([metric, 1]);
      }
    },
    60_000,
  );

  // the MCP SDK's own suite (mcpserver:list-changed:debounce) under zero-code got three of each
  it.each(
    [
      ['mcp-debounce.mjs', '1.x'],
      ['mcp-debounce-v2.mjs', '2.x'],
    ].filter(([, line]) => sdkLine === 2 || line === '1.x'),
  )(
    '%s (SDK %s): debounced notifications still merge: a burst of registrations on an McpServer with debouncedNotificationMethods reaches the client as one list_changed of each kind, as without register, one CLIENT and one SERVER span each',
    async (fixture, _line) => {
      const run = await runUnderRegister(fixture);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('{"tools":1,"resources":1,"prompts":1}\n');
      for (const kind of ['tools', 'resources', 'prompts']) {
        const name = `notifications/${kind}/list_changed`;
        const kinds = run.spans.filter((span) => span.name === name).map((span) => span.kind);
        expect([name, kinds.sort()]).toEqual([name, [SPAN_KIND_SERVER, SPAN_KIND_CLIENT]]);
      }
    },
    60_000,
  );
});
