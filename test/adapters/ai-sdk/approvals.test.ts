/**
 * The AI SDK's tool approvals (`needsApproval`) as decisions: a real `generateText` loop (mock model)
 * whose model calls a tool that needs approval twice; the app denies one call and grants the other in
 * its next request. Each path: `wrapTools` (sees the SDK ask), `observeToolCalls` (sees the answers too).
 */
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { type ToolCallDecision, type ToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { observeToolCalls, wrapTools } from 'otel-tool-calls/ai-sdk';
import {
  ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  METRIC_TOOL_CALL_APPROVAL_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { expectOneWaitPerAnswer } from '../../helpers/decision-logs.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import {
  askApprovals,
  askDenyGrant,
  asked,
  emailingModel,
  HUMAN_WAIT_MS,
  inMemoryLogs,
  sendEmail,
  sent,
} from './approval-flow.js';

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

  it('two conversations whose calls share an id: each answer carries the wait since its own question', async () => {
    const told: ToolCallDecision[] = [];
    const listener = ToolCallListeners.composite(telemetry.listener(), {
      onDecision: (decision: ToolCallDecision) => told.push(decision),
    });
    const options = (messages: ModelMessage[]) =>
      observeToolCalls(
        { model: emailingModel(), tools: { send_email: sendEmail }, messages, stopWhen: stepCountIs(3) },
        listener,
      );
    // the model numbers its calls per conversation: call_1 and call_2 in both
    const answerAlice = await askApprovals(generateText, options, 'Email both users, for Alice');
    const answerBob = await askApprovals(generateText, options, 'Email both users, for Bob');
    // Bob answers first, Alice last: Alice's waits span Bob's
    await answerBob();
    await answerAlice();
    const answers = told.filter((decision) => decision.outcome !== 'require_approval');
    expect(answers.map(({ toolCallId, outcome }) => `${toolCallId} ${outcome}`)).toEqual([
      'call_1 deny',
      'call_2 allow',
      'call_1 deny',
      'call_2 allow',
    ]);
    const waits = answers.map(({ waitSeconds }) => waitSeconds);
    expect(waits.map((wait) => typeof wait)).toEqual(['number', 'number', 'number', 'number']);
    const [bobDeny, bobAllow, aliceDeny, aliceAllow] = waits as number[];
    expect(aliceDeny).toBeGreaterThan(bobDeny as number);
    expect(aliceAllow).toBeGreaterThan(bobAllow as number);
    const points = await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION);
    expect(points.reduce((count, point) => count + point.value.count, 0)).toBe(4);
  });

  it('a tool name the client sends back that is not one of the app tools is _unknown on the approval metric', async () => {
    const { loggerProvider, decisions } = inMemoryLogs();
    const listener = telemetry.listener({ loggerProvider });
    const options = (messages: ModelMessage[]) =>
      observeToolCalls(
        { model: emailingModel(), tools: { send_email: sendEmail }, messages, stopWhen: stepCountIs(3) },
        listener,
      );
    for (const conversation of [1, 2, 3]) {
      const answer = await askApprovals(generateText, options, `Email both users (${conversation})`);
      // the client renames the denied call's tool: a new name each time
      await answer((messages) => {
        for (const message of messages) {
          if (message.role !== 'assistant' || typeof message.content === 'string') continue;
          for (const part of message.content) {
            if (part.type === 'tool-call' && part.toolCallId === 'call_1') part.toolName = `invented_${conversation}`;
          }
        }
      });
    }
    const answers = (await decisions()).filter((decision) => !decision.endsWith('require_approval'));
    expect(answers).toEqual(
      [1, 2, 3].flatMap(() => [`${GEN_AI_TOOL_NAME_VALUE_UNKNOWN} call_1 deny`, 'send_email call_2 allow']),
    );
    const series = (await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION)).map(
      ({ attributes, value }) =>
        `${attributes[ATTR_GEN_AI_TOOL_NAME]} ${attributes[ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]} ${value.count}`,
    );
    expect(series.sort()).toEqual([`${GEN_AI_TOOL_NAME_VALUE_UNKNOWN} deny 3`, 'send_email allow 3']);
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
