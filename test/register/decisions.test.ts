/**
 * Decisions under zero-code: an AI SDK app with no telemetry code whose tool needs approval, run
 * under `otel-tool-calls/register` with the variables a user sets. Its decisions leave the process as
 * `gen_ai.tool.call.decision` log records over OTLP, through the logger provider register started
 * (the Logs API of the line: `@opentelemetry/api-logs` on 2.x, `@opentelemetry/api` 1.10's on 3.x).
 */
import {
  ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  EVENT_GEN_AI_TOOL_CALL_DECISION,
  METRIC_TOOL_CALL_APPROVAL_DURATION,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, sdkLine, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe(`zero-code decisions (SDK ${sdkLine}.x)`, () => {
  it('an AI SDK approval flow sends its decisions as log records over OTLP, a wait per answer, and a span only for the call that ran', async () => {
    const run = await runUnderRegister('ai-sdk-approvals.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // the flow is the app's, as without telemetry
    expect(run.stdout).toBe('asked call_1,call_2; sent user1@example.com; done\n');

    const decisions = run.events.filter((event) => event.eventName === EVENT_GEN_AI_TOOL_CALL_DECISION);
    expect(decisions.map(({ attributes }) => attributes)).toEqual([
      {
        [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
        [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: 'require_approval',
      },
      {
        [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_2',
        [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: 'require_approval',
      },
      {
        [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
        [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: 'deny',
      },
      {
        [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_2',
        [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: 'allow',
      },
    ]);

    // the human's wait, one sample per answer
    const waits = run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_APPROVAL_DURATION);
    expect(waits?.total).toBe(2);
    expect(waits?.points.map((point) => point[ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]).sort()).toEqual([
      'allow',
      'deny',
    ]);

    // the denied call never ran: no span of it
    expect(toolSpans(run).map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_2']);
  });
});
