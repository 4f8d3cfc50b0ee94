import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ERROR_TYPE_VALUE_TOOL_ERROR,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

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
