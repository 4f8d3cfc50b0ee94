import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ERROR_TYPE_VALUE_TOOL_ERROR,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AppRun, buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/** One span per function tool call of the fixture app, the SDK-handled failure a `tool_error`. */
function expectOneSpanPerCall(run: AppRun): void {
  const spans = toolSpans(run);
  expect(spans.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.name]).sort()).toEqual([
    ['call_1', 'execute_tool weather'],
    ['call_2', 'execute_tool forecast'],
  ]);
  expect(spans.find((span) => span.name === 'execute_tool forecast')?.attributes['error.type']).toBe(
    ERROR_TYPE_VALUE_TOOL_ERROR,
  );
}

describe('zero-code: an OpenAI Agents SDK app with no telemetry code', () => {
  it.each([
    ['openai-agents.mjs', 'import'],
    ['openai-agents.cjs', 'require'],
  ] as const)(
    '%s under --%s: a span per function tool call, the SDK-handled failure included',
    async (fixture, preload) => {
      const run = await runUnderRegister(fixture, { preload });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // the SDK's own errorFunction text reaches the model, as without telemetry ('rethrow')
      expect(run.stdout).toBe(
        'weather: sunny in Oslo; forecast: An error occurred while running the tool. Please try again.\n',
      );
      expectOneSpanPerCall(run);
      expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(2);
      expect(run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS)?.total).toBe(1);
    },
  );

  it('frozen tools (Object.freeze(tool(...))) are observed as they are: a span per call, the tools stay frozen', async () => {
    const run = await runUnderRegister('openai-agents.mjs', { env: { FREEZE_TOOLS: '1' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'weather: sunny in Oslo; forecast: An error occurred while running the tool. Please try again. (tools frozen)\n',
    );
    expectOneSpanPerCall(run);
    expect(run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS)?.total).toBe(1);
  });
});
