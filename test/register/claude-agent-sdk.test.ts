import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

const total = (run: Awaited<ReturnType<typeof runUnderRegister>>, name: string) =>
  run.metrics.find((metric) => metric.name === name)?.total;

describe('zero-code: Claude Agent SDK calls that no Post hook ends, and concurrent sessions', () => {
  it('every call ends and is counted once (denied, interrupted, aborted, a loop left early), and none stays open', async () => {
    const run = await runUnderRegister('claude-agent-sdk-unfinished.mjs', { timeoutMs: 120_000 });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'denied: done, interrupted: failed, aborted: failed, left early: done\nopen calls by tool_use id: 0\n',
    );
    const spans = toolSpans(run).map((span) => [
      span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
      span.attributes[ATTR_ERROR_TYPE],
      span.status.message,
    ]);
    const ended = 'The session ended with the call still open';
    expect(spans.sort()).toEqual([
      ['toolu_1', 'permission_denied', 'Permission denied: not allowed here'],
      ['toolu_1', 'session_ended', ended],
      ['toolu_1', 'session_ended', ended],
      ['toolu_1', 'session_ended', ended],
      ['toolu_2', 'session_ended', ended],
    ]);
    expect(total(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(5);
    expect(total(run, METRIC_TOOL_CALL_ERRORS)).toBe(5);
  });

  it('two concurrent queries whose calls share a tool_use id each get their own span', async () => {
    const run = await runUnderRegister('claude-agent-sdk-concurrent.mjs', { timeoutMs: 120_000 });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('results: success, success\n');
    const spans = toolSpans(run).map((span) => [
      span.name,
      span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
      span.status.code,
    ]);
    expect(spans.sort()).toEqual([
      ['execute_tool Bash', 'toolu_1', 0],
      ['execute_tool Read', 'toolu_1', 0],
    ]);
    expect(total(run, METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).toBe(2);
  });
});
