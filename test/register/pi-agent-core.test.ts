import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/** What the app prints: each tool result it got, then the model's answer (fixtures/pi-agent-core.mjs). */
const APP_OUTPUT = [
  'call_1 false "rain in Oslo"',
  'call_2 true "Tool get_forecast not found"',
  'call_3 true "Validation failed for tool \\"get_weather\\":"',
  'call_4 true "no weather for Atlantis"',
  'done',
  '',
].join('\n');

describe('zero-code: pi’s agent loop (@mariozechner/pi-agent-core) with no telemetry code', () => {
  it.each([
    ['agent', 'session-1'],
    ['agentLoop', undefined],
  ])(
    'LOOP=%s: one span per call with the model’s id, the unknown tool and the refused arguments counted as the model’s, the error counted; the app gets what it gets without register',
    async (loop, conversationId) => {
      const bare = await runUnderRegister('pi-agent-core.mjs', { preload: 'none', env: { LOOP: loop } });
      expect(bare.stdout).toBe(APP_OUTPUT);
      const run = await runUnderRegister('pi-agent-core.mjs', { env: { LOOP: loop } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(APP_OUTPUT);

      const spans = toolSpans(run);
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]]).sort()).toEqual([
        ['execute_tool get_forecast', 'call_2'],
        ['execute_tool get_weather', 'call_1'],
        ['execute_tool get_weather', 'call_3'],
        ['execute_tool get_weather', 'call_4'],
      ]);
      const byId = (id: string) => spans.find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === id);
      expect(byId('call_1')?.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
      expect(byId('call_2')?.attributes[ATTR_ERROR_TYPE]).toBe('ToolNotFoundError');
      expect(byId('call_2')?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
      expect(byId('call_3')?.attributes[ATTR_ERROR_TYPE]).toBe('InvalidToolArgumentsError');
      expect(byId('call_3')?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
      expect(byId('call_4')?.attributes[ATTR_ERROR_TYPE]).toBe('Error');
      expect(byId('call_4')?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBeUndefined();
      expect(spans.map((span) => span.attributes[ATTR_GEN_AI_CONVERSATION_ID])).toEqual(
        spans.map(() => conversationId),
      );
      expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(4);
      expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(3);
      const errors = run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS);
      expect(
        errors?.points.map((point) => `${point[ATTR_GEN_AI_TOOL_NAME]} ${point[ATTR_TOOL_CALL_ERROR_SOURCE]}`).sort(),
      ).toEqual(['_unknown model', 'get_weather model', 'get_weather undefined']);
    },
  );

  it('a CommonJS app (--require), which loads the ES-modules-only package with import(): the same spans, the same output', async () => {
    const bare = await runUnderRegister('pi-agent-core.cjs', { preload: 'none' });
    expect(bare.stdout).toBe(APP_OUTPUT);
    const run = await runUnderRegister('pi-agent-core.cjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(APP_OUTPUT);
    expect(
      toolSpans(run)
        .map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])
        .sort(),
    ).toEqual(['call_1', 'call_2', 'call_3', 'call_4']);
    expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(3);
  });

  it('an Agent the app observes itself (instrumentAgent) is observed once, by its own listener', async () => {
    const run = await runUnderRegister('pi-agent-core.mjs', { env: { EXPLICIT: '1' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // the app's listener reports: the model reads its texts
    expect(run.stdout).toContain(`call_2 true "Tool 'get_forecast' failed: Tool get_forecast not found"`);
    expect(run.stdout).toContain(`call_4 true "Tool 'get_weather' failed: no weather for Atlantis"`);
    const spans = toolSpans(run);
    expect(spans).toHaveLength(4);
    for (const span of spans) expect(span.attributes[ATTR_GEN_AI_AGENT_NAME]).toBe('own-listener');
    expect(spans.filter((span) => span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME] === 'reported')).toHaveLength(3);
    expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(4);
  });
});
