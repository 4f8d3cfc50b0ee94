import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: @google/genai automatic function calling with no telemetry code', () => {
  it.each([
    ['0', [['fc_1', 'fc_2']]],
    ['1', [['fc_1'], ['fc_2']]],
  ])(
    'STREAM=%s: the tool gets each batch as the SDK hands it, one span per function call with its id, the response.error counted',
    async (stream, batches) => {
      const run = await runUnderRegister('google-genai.mjs', { env: { STREAM: stream } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // generateContent hands the tool both calls at once, the stream one at a time: as without register
      expect(run.stdout).toBe(`done\nbatches ${JSON.stringify(batches)}\nanswered ["fc_1","fc_2"]\n`);
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

  it('a call of a function no CallableTool declares is the model’s mistake: one failed span with the name it used (error source model), one sample and one error as _unknown; the model gets what it gets without register', async () => {
    const run = await runUnderRegister('google-genai.mjs', { env: { MISSPELT: '1' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('done\nbatches [["fc_1","fc_2","fc_3"]]\nanswered ["fc_1","fc_2"]\n');
    const misspelt = toolSpans(run).filter((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'fc_3');
    expect(misspelt.map((span) => [span.name, span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]])).toEqual([
      ['execute_tool wheather', 'model'],
    ]);
    expect(misspelt[0]?.attributes[ATTR_ERROR_TYPE]).toBe('UndeclaredFunctionError');
    expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(3);
    expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(2);
    const errors = run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS);
    expect(errors?.points.map((point) => point[ATTR_GEN_AI_TOOL_NAME]).sort()).toEqual(['_unknown', 'get_weather']);
  });
});
