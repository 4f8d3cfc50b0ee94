import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: observed once', () => {
  it('an AI SDK tool already wrapped with wrapTools (even spread into a copy) gets one span, from its own listener', async () => {
    const run = await runUnderRegister('ai-sdk-wrapped.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // lookup's failure reported by the app's listener; plain's rethrown (the AI SDK makes it a tool-error)
    expect(run.stdout.trim()).toBe('lookup:text,plain:error-text');
    const spans = toolSpans(run);
    expect(
      spans
        .map((span) => [span.attributes[ATTR_GEN_AI_TOOL_NAME], span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]])
        .sort(),
    ).toEqual([
      ['lookup', TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED],
      ['plain', TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN],
    ]);
    expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(2);
  });

  it('an MCP server and client the app instrumented itself are not observed a second time', async () => {
    const run = await runUnderRegister('mcp-instrumented.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('sunny in Oslo\n');
    const spans = toolSpans(run);
    expect(spans).toHaveLength(2); // one client span, one server span
    for (const span of spans) expect(span.attributes[ATTR_GEN_AI_AGENT_NAME]).toBe('own-listener');
  });
});
