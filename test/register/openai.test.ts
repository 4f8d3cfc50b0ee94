import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: the openai SDK tool runner (runTools) with no telemetry code', () => {
  it.each(['0', '1'])(
    'STREAM=%s: one span per call with its id, the unknown tool of the first turn counted as the model’s, the error count',
    async (stream) => {
      const run = await runUnderRegister('openai.mjs', { env: { STREAM: stream } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('rejected: no weather for Atlantis\n');
      const spans = toolSpans(run);
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]]).sort()).toEqual([
        ['execute_tool get_forecast', 'call_0'],
        ['execute_tool get_weather', 'call_1'],
        ['execute_tool get_weather', 'call_2'],
      ]);
      const unknown = spans.find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'call_0');
      expect(unknown?.attributes[ATTR_ERROR_TYPE]).toBe('InvalidToolCall');
      expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(3);
      expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(2);
    },
  );
});
