import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ERROR_TYPE_VALUE_TOOL_ERROR,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, sdkLine, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: an MCP server and client with no telemetry code', () => {
  it.each([
    ['mcp.mjs', 'import'],
    ['mcp.cjs', 'require'],
    ['mcp.cjs', 'import'],
  ] as const)(
    '%s under --%s: one client and one server span per call, tools registered before and after connect',
    async (fixture, preload) => {
      const run = await runUnderRegister(fixture, { preload });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        'weather: ok sunny in Oslo\nforecast: error forecast service unavailable\nalerts: error no alert feed for Oslo\n',
      );
      const spans = toolSpans(run);
      expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME]).sort()).toEqual([
        'alerts',
        'alerts',
        'forecast',
        'forecast',
        'weather',
        'weather',
      ]);
      for (const span of spans) expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe(MCP_METHOD_NAME_VALUE_TOOLS_CALL);
      // the client sees both failures as MCP results with isError: true
      const clientSide = spans.filter(
        (span) =>
          span.attributes[ATTR_GEN_AI_TOOL_NAME] !== 'weather' &&
          span.attributes['error.type'] === ERROR_TYPE_VALUE_TOOL_ERROR,
      );
      expect(clientSide.length).toBeGreaterThanOrEqual(2);
      expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(6);
    },
  );
});

describe('zero-code: an MCP client that listed its tools', () => {
  // the 2.x split packages are not installed on the OpenTelemetry SDK 3.x line (compat/)
  it.each(sdkLine === 3 ? ['1'] : ['1', '2'])(
    'SDK %s.x: the names it made up that the server does not have are _unknown in the metrics, the spans keep them',
    async (line) => {
      const run = await runUnderRegister('mcp-unlisted.mjs', { env: { MCP_SDK_LINE: line } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const notFound = line === '1' ? 'error' : 'error -32602';
      expect(run.stdout).toBe(`listed: weather\nweather: ok\ninvented-1: ${notFound}\ninvented-2: ${notFound}\n`);
      const names = (metric: string) =>
        new Set(
          run.metrics.find((exported) => exported.name === metric)?.points.map((point) => point[ATTR_GEN_AI_TOOL_NAME]),
        );
      // client and server: neither opens a series for a made-up name
      expect(names(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toEqual(new Set(['weather', GEN_AI_TOOL_NAME_VALUE_UNKNOWN]));
      expect(names(METRIC_TOOL_CALL_ERRORS)).toEqual(new Set([GEN_AI_TOOL_NAME_VALUE_UNKNOWN]));
      expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(4);
      const invented = toolSpans(run).filter((span) =>
        String(span.attributes[ATTR_GEN_AI_TOOL_NAME]).startsWith('invented'),
      );
      expect(invented.map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME]).sort()).toEqual([
        'invented-1',
        'invented-1',
        'invented-2',
        'invented-2',
      ]);
    },
  );
});
