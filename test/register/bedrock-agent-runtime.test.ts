import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe("zero-code: a Bedrock agent's return of control (@aws-sdk/client-bedrock-agent-runtime) with no telemetry code", () => {
  it.each(['bedrock-agent-runtime.mjs', 'bedrock-agent-runtime.cjs'])(
    '%s: the app as without register; each call handed one span with the invocationId and session, a FAILURE result its error, a call never answered ended with its session',
    async (fixture) => {
      const bare = await runUnderRegister(fixture, { preload: 'none' });
      const run = await runUnderRegister(fixture);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(bare.stdout);
      // the SDK's own warning on Node 20 (its process id aside), with or without register
      const withoutPid = (stderr: string) => stderr.replaceAll(/\(node:\d+\)/g, '(node)');
      expect(withoutPid(run.stderr)).toBe(withoutPid(bare.stderr));
      expect(run.stdout.split('\n')).toEqual([
        '["Rain in Oslo."]',
        '["Rain in Oslo."]',
        expect.stringContaining('session-3-never'),
        '["bye"]',
        '',
      ]);

      const facts = toolSpans(run)
        .map((span) => [
          span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
          span.attributes[ATTR_GEN_AI_CONVERSATION_ID],
          span.name,
          span.attributes[ATTR_ERROR_TYPE],
        ])
        .sort();
      expect(facts).toEqual([
        ['InvokeAgent-session-1', 'session-1', 'execute_tool get_weather', undefined],
        ['InvokeAgent-session-1', 'session-1', 'execute_tool get_weather', 'ReturnControlFailureError'],
        ['InvokeAgent-session-3-never', 'session-3', 'execute_tool get_weather', 'ReturnControlUnansweredError'],
        ['InvokeInlineAgent-session-2', 'session-2', 'execute_tool get_weather', undefined],
        ['InvokeInlineAgent-session-2', 'session-2', 'execute_tool get_weather', 'ReturnControlFailureError'],
      ]);
      expect(metricTotal(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(5);
      expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(3);
    },
  );
});
