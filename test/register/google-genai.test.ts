import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: @google/genai automatic function calling with no telemetry code', () => {
  it.each(['0', '1'])(
    'STREAM=%s: one span per function call with its id, the response.error counted',
    async (stream) => {
      const run = await runUnderRegister('google-genai.mjs', { env: { STREAM: stream } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('done\n');
      const spans = toolSpans(run);
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
        ['execute_tool get_weather', 'fc_1'],
        ['execute_tool get_weather', 'fc_2'],
      ]);
      expect(spans[1]?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
      expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(2);
      expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(1);
    },
  );
});
