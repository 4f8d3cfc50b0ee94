import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: an AI SDK app with no telemetry code', () => {
  it.each([
    ['ai-sdk.mjs', 'import'],
    ['ai-sdk.cjs', 'require'],
    ['ai-sdk.cjs', 'import'],
  ] as const)(
    '%s under --%s otel-tool-calls/register sends its execute_tool spans and metrics over OTLP',
    async (fixture, preload) => {
      const run = await runUnderRegister(fixture, { preload });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // the app behaves as without telemetry: the thrown error is still the AI SDK's tool-error part
      expect(run.stdout).toBe(
        'generateText: getWeather:json,convertCurrency:error-text,getWeather:error-text,getWether:error-text\n' +
          'streamText: getWeather:json,getWether:error-text\nagent: getWeather:json\n',
      );

      const spans = toolSpans(run);
      // generateText (2 tools, 2 calls the SDK rejects), streamText (1, 1 rejected), ToolLoopAgent.generate (1):
      // one span per call the model made
      expect(spans.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.name]).sort()).toEqual([
        ['call_1', 'execute_tool getWeather'],
        ['call_2', 'execute_tool convertCurrency'],
        ['call_3', 'execute_tool getWeather'],
        ['call_4', 'execute_tool getWeather'],
        ['call_5', 'execute_tool getWeather'],
        ['call_6', 'execute_tool getWether'],
        ['call_7', 'execute_tool getWether'],
      ]);
      const rejected = spans.filter((span) => span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE] === 'model');
      expect(
        rejected.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_ERROR_TYPE]]).sort(),
      ).toEqual([
        ['call_5', 'AI_InvalidToolInputError'],
        ['call_6', 'AI_NoSuchToolError'],
        ['call_7', 'AI_NoSuchToolError'],
      ]);
      expect(new Set(spans.map((span) => span.serviceName))).toEqual(new Set(['zero-code-app']));
      const failed = spans.find((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME] === 'convertCurrency');
      // the error policy is 'rethrow' unless configured
      expect(failed?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe(TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN);
      expect(failed?.status).toMatchObject({ code: 2, message: 'exchange-rate service unavailable' });

      const duration = run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(duration?.total).toBe(7);
      expect(run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS)?.total).toBe(4);
    },
  );
});
