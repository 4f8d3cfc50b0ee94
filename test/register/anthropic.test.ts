import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, sdkLine, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: the Anthropic SDK tool runner with no telemetry code', () => {
  it.each(['0', '1'])(
    'STREAM=%s: one span per tool call (the SDK span joined), its sample and the error count',
    async (stream) => {
      const run = await runUnderRegister('anthropic.mjs', { env: { STREAM: stream } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('toolu_1: rain in Oslo\ntoolu_2: Error: no weather for Atlantis (error)\ndone\n');
      const spans = toolSpans(run);
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]]).sort()).toEqual([
        ['anthropic.custom_tool_use get_weather', 'toolu_1'],
        ['anthropic.custom_tool_use get_weather', 'toolu_2'],
      ]);
      expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(2);
      expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(1);
    },
  );
});

describe('zero-code: the Claude Agent SDK with no telemetry code', () => {
  it.each([
    ['0', "adds the tool-call hooks to query() next to the app's own, and instruments its SDK MCP server"],
    ['1', 'leaves a query and a server the app observes itself to its own observation'],
  ])(
    'EXPLICIT=%s: %s: one span per call',
    async (explicit) => {
      const run = await runUnderRegister('claude-agent-sdk.mjs', { timeoutMs: 60_000, env: { EXPLICIT: explicit } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('app hook saw: Read, mcp__calc__add\nown hooks kept in place: true\nresult: success\n');
      const spans = toolSpans(run);
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
        ['execute_tool Read', 'toolu_1'],
        ['execute_tool mcp__calc__add', 'toolu_2'],
      ]);
      // the SDK MCP server's call joined the hooks' span
      expect(spans[1]?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
      expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(2);
    },
    70_000,
  );
});

// not installed on the OpenTelemetry SDK 3.x line (compat/)
describe.skipIf(sdkLine === 3)('zero-code: the MCP 2.x split packages with no telemetry code', () => {
  it('observes @modelcontextprotocol/server and @modelcontextprotocol/client: one client and one server span per call', async () => {
    const run = await runUnderRegister('mcp-v2.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('weather: ok sunny in Oslo\nforecast: error forecast service unavailable\n');
    const spans = toolSpans(run);
    expect(spans.map((span) => `${span.attributes[ATTR_GEN_AI_TOOL_NAME]} ${span.kind}`).sort()).toEqual([
      'forecast 2',
      'forecast 3',
      'weather 2',
      'weather 3',
    ]);
    expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(4);
  });
});

describe('zero-code: Claude Agent SDK calls that no Post hook ends, and concurrent sessions', () => {
  it('every call ends and is counted once (denied, interrupted, aborted, a loop left early), and none stays open', async () => {
    const run = await runUnderRegister('claude-agent-sdk-unfinished.mjs', { timeoutMs: 120_000 });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'denied: done, interrupted: failed, aborted: failed, left early: done\nopen calls by tool_use id: 0\n',
    );
    const spans = toolSpans(run).map((span) => [
      span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
      span.attributes[ATTR_ERROR_TYPE],
      span.status.message,
    ]);
    const ended = 'The session ended with the call still open';
    expect(spans.sort()).toEqual([
      ['toolu_1', 'permission_denied', 'Permission denied: not allowed here'],
      ['toolu_1', 'session_ended', ended],
      ['toolu_1', 'session_ended', ended],
      ['toolu_1', 'session_ended', ended],
      ['toolu_2', 'session_ended', ended],
    ]);
    expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(5);
    expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(5);
  });

  it('two concurrent queries whose calls share a tool_use id each get their own span', async () => {
    const run = await runUnderRegister('claude-agent-sdk-concurrent.mjs', { timeoutMs: 120_000 });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('results: success, success\n');
    const spans = toolSpans(run).map((span) => [
      span.name,
      span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
      span.status.code,
    ]);
    expect(spans.sort()).toEqual([
      ['execute_tool Bash', 'toolu_1', 0],
      ['execute_tool Read', 'toolu_1', 0],
    ]);
    expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(2);
  });
});
