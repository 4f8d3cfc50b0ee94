import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe("zero-code: OpenRouter's callModel (@openrouter/agent, @openrouter/sdk 1.x) with no telemetry code", () => {
  it("the app as without register; one span per call with the model's id, its mistakes the model's, one sample each, the error count", async () => {
    const bare = await runUnderRegister('openrouter.mjs', { preload: 'none' });
    const run = await runUnderRegister('openrouter.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(bare.stdout);
    expect(run.stdout).toContain('{"agent":"","read":');
    expect(run.stdout).toContain('{"sdk":"done","read":');

    const facts = toolSpans(run)
      .map((span) => [
        span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
        span.name,
        span.attributes[ATTR_ERROR_TYPE],
        span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE],
      ])
      .sort();
    const expected = (prefix: string) => [
      [`${prefix}_1`, 'execute_tool get_weather', undefined, undefined],
      [`${prefix}_2`, 'execute_tool get_weather', 'Error', undefined],
      [`${prefix}_3`, 'execute_tool get_weather', 'SyntaxError', 'model'],
      [`${prefix}_4`, 'execute_tool get_weather', 'ZodError', 'model'],
      [`${prefix}_5`, 'execute_tool get_forecast', 'UnknownToolError', 'model'],
      [`${prefix}_6`, 'execute_tool get_weather', undefined, undefined],
    ];
    expect(facts).toEqual([...expected('agent'), ...expected('sdk')]);
    expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(12);
    expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(8);
  });
});
