/**
 * The AI SDK's tool approvals (`needsApproval`) as decisions: a real `generateText` loop (mock model)
 * whose model calls a tool that needs approval twice; the app denies one call and grants the other in
 * its next request. Each path: `wrapTools` (sees the SDK ask), `observeToolCalls` (sees the answers too).
 */
import { generateText, stepCountIs, tool } from 'ai';
import { type ToolCallDecision, type ToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { observeToolCalls, wrapTools } from 'otel-tool-calls/ai-sdk';
import { ATTR_GEN_AI_TOOL_CALL_ID, METRIC_TOOL_CALL_APPROVAL_DURATION } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { expectOneWaitPerAnswer } from '../../helpers/decision-logs.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { askDenyGrant, asked, emailingModel, HUMAN_WAIT_MS, inMemoryLogs, sendEmail, sent } from './approval-flow.js';

const telemetry = useTestTelemetry();

describe('AI SDK approvals (needsApproval) as decisions', () => {
  it('observeToolCalls: asked, denied and granted: the records, and a span only for the call that ran', async () => {
    const { loggerProvider, decisions } = inMemoryLogs();
    const listener = telemetry.listener({ loggerProvider });
    await askDenyGrant(generateText, (messages) =>
      observeToolCalls(
        { model: emailingModel(), tools: { send_email: sendEmail }, messages, stopWhen: stepCountIs(3) },
        listener,
      ),
    );
    expect(await decisions()).toEqual([
      'send_email call_1 require_approval',
      'send_email call_2 require_approval',
      'send_email call_1 deny',
      'send_email call_2 allow',
    ]);
    // the SDK asked again before the granted call ran: still one require_approval for it
    expect(asked).toEqual(['call_1', 'call_2', 'call_2']);
    expect(sent).toEqual(['user1@example.com']);
    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool send_email');
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_2']);
    // each answer waited for the human since the question, in this process: one sample per outcome
    expectOneWaitPerAnswer(await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION), HUMAN_WAIT_MS);
  });

  it('wrapTools alone sees the SDK ask (the answers are in the messages it is not given)', async () => {
    const told: ToolCallDecision[] = [];
    const listener = { onDecision: (decision: ToolCallDecision) => told.push(decision) };
    const tools = wrapTools({ send_email: sendEmail, always: tool({ ...sendEmail, needsApproval: true }) }, listener);
    await askDenyGrant(generateText, (messages) => ({
      model: emailingModel(),
      tools,
      messages,
      stopWhen: stepCountIs(3),
    }));
    expect(told).toEqual([
      { toolName: 'send_email', outcome: 'require_approval', toolCallId: 'call_1', framework: 'ai-sdk' },
      { toolName: 'send_email', outcome: 'require_approval', toolCallId: 'call_2', framework: 'ai-sdk' },
    ]);
    expect(sent).toEqual(['user1@example.com']);
  });

  it('a listener without onDecision, and needsApproval: true, leave the flow as it is', async () => {
    const always = tool({ ...sendEmail, needsApproval: true });
    const tools = wrapTools({ send_email: always }, telemetry.listener());
    expect(typeof tools.send_email.needsApproval).toBe('function');
    await askDenyGrant(generateText, (messages) =>
      observeToolCalls({ model: emailingModel(), tools, messages, stopWhen: stepCountIs(3) }, {}),
    );
    expect(sent).toEqual(['user1@example.com']);
  });

  it('a listener that takes no decisions (recordDecisions: false, a composite of such parts) keeps the tool own', () => {
    const always = tool({ ...sendEmail, needsApproval: true });
    const silent = telemetry.listener({ recordDecisions: false });
    const silentParts: ToolCallListener<unknown>[] = [silent, ToolCallListeners.composite({}, silent)];
    for (const listener of silentParts) {
      expect(wrapTools({ send_email: always }, listener).send_email.needsApproval).toBe(true);
      expect(wrapTools({ send_email: sendEmail }, listener).send_email.needsApproval).toBe(sendEmail.needsApproval);
    }
    // one part that records them: observed
    const recording = ToolCallListeners.composite(silent, telemetry.listener());
    expect(wrapTools({ send_email: always }, recording).send_email.needsApproval).toEqual(expect.any(Function));
  });
});
