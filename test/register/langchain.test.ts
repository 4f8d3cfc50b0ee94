import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: a LangChain.js app with no telemetry code', () => {
  it.each([
    ['langchain.mjs', 'import'],
    ['langchain.cjs', 'require'],
    ['langchain.cjs', 'import'],
  ] as const)(
    '%s under --%s: a span per tool call (tool(), a StructuredTool class, a failing tool)',
    async (fixture, preload) => {
      const run = await runUnderRegister(fixture, { preload });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('weather: sunny in Oslo\nsearch: 3 results for otel\nreindex: index unavailable\n');
      const spans = toolSpans(run);
      expect(spans.map((span) => span.name)).toEqual([
        'execute_tool weather',
        'execute_tool search',
        'execute_tool reindex',
      ]);
      expect(spans[0]?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_1');
      expect(spans[2]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe(TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN);
      expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(3);
    },
  );

  it('a tool class with #private fields and a counter runs as without telemetry: its state kept across calls, a span per call', async () => {
    const run = await runUnderRegister('langchain-stateful.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('8 of ab, lookup 1\n9 of abc, lookup 2\nlookups: 2\n');
    expect(toolSpans(run).map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['execute_tool inventory', 'call_1'],
      ['execute_tool inventory', 'call_2'],
    ]);
  });
});
