import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

const EXPECTED_OUTPUT =
  'sunny in Oslo | noon in Oslo | error: Error: Error: Error(RangeError): no forecast for Oslo\ndirect: noon in Bergen\n';

describe('zero-code: a LlamaIndex.TS workflow agent with no telemetry code', () => {
  it.each([
    ['llamaindex.mjs', 'import'],
    ['llamaindex.cjs', 'require'],
    ['llamaindex.cjs', 'import'],
  ] as const)(
    "%s under --%s: one span per call with the model's call id, the failure counted, the agent's result unchanged",
    async (fixture, preload) => {
      const unobserved = await runUnderRegister(fixture, { preload: 'none' });
      expect(unobserved.stdout).toBe(EXPECTED_OUTPUT);

      const run = await runUnderRegister(fixture, { preload });

      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(unobserved.stdout);
      const spans = toolSpans(run);
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
        ['execute_tool weather', 'call_1'],
        ['execute_tool time', 'call_2'],
        ['execute_tool forecast', 'call_3'],
      ]);
      const failed = spans[2];
      expect(failed?.status.code).toBe(2);
      expect(failed?.attributes[ATTR_ERROR_TYPE]).toBe('RangeError');
      expect(failed?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe(TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN);
      expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(3);
      expect(run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS)?.total).toBe(1);
    },
  );
});
