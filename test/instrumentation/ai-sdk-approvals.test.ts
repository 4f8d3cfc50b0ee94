/**
 * Zero-code (the `ai` module patched by ToolCallsInstrumentation): the AI SDK's approvals are decisions,
 * as under observeToolCalls: the SDK asking (`require_approval`, once per call), the app's answers in
 * the next request's messages (`deny`, `allow`), to the logger provider registered with the Logs API.
 */
import { logs } from '@opentelemetry/api-logs';
import { type ModelMessage, stepCountIs } from 'ai';
import {
  ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  METRIC_TOOL_CALL_APPROVAL_DURATION,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import {
  askApprovals,
  askDenyGrant,
  asked,
  emailingModel,
  inMemoryLogs,
  sendEmail,
  sent,
} from '../adapters/ai-sdk/approval-flow.js';
import { createTestTelemetry } from '../helpers/otel-sdk.js';
import { underAiInstrumentation } from './patch-ai.js';

describe('zero-code: AI SDK approvals as decisions', () => {
  afterEach(() => logs.disable());

  it('asked, denied and granted: the four records, and a span only for the call that ran', async () => {
    const telemetry = createTestTelemetry();
    const { loggerProvider, decisions } = inMemoryLogs();
    logs.setGlobalLoggerProvider(loggerProvider);
    await underAiInstrumentation(telemetry, (ai) =>
      askDenyGrant(ai.generateText, (messages) => ({
        model: emailingModel(),
        tools: { send_email: sendEmail },
        messages,
        stopWhen: stepCountIs(3),
      })),
    );
    expect(await decisions()).toEqual([
      'send_email call_1 require_approval',
      'send_email call_2 require_approval',
      'send_email call_1 deny',
      'send_email call_2 allow',
    ]);
    expect(asked).toEqual(['call_1', 'call_2', 'call_2']);
    expect(sent).toEqual(['user1@example.com']);
    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool send_email');
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_2']);
  });

  it('two conversations whose calls share an id: a wait for each answer; a tool name the app does not have is _unknown', async () => {
    const telemetry = createTestTelemetry();
    const { loggerProvider } = inMemoryLogs();
    logs.setGlobalLoggerProvider(loggerProvider);
    await underAiInstrumentation(telemetry, async (ai) => {
      const options = (messages: ModelMessage[]) => ({
        model: emailingModel(),
        tools: { send_email: sendEmail },
        messages,
        stopWhen: stepCountIs(3),
      });
      const answerAlice = await askApprovals(ai.generateText, options, 'Email both users, for Alice');
      const answerBob = await askApprovals(ai.generateText, options, 'Email both users, for Bob');
      await answerBob();
      // Alice's client renames the denied call's tool
      await answerAlice((messages) => {
        for (const message of messages) {
          if (message.role !== 'assistant' || typeof message.content === 'string') continue;
          for (const part of message.content)
            if (part.type === 'tool-call' && part.toolCallId === 'call_1') part.toolName = 'invented';
        }
      });
    });
    const points = await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION);
    const counts = points.map(
      ({ attributes, value }) =>
        `${attributes[ATTR_GEN_AI_TOOL_NAME]} ${attributes[ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]} ${value.count}`,
    );
    // four answers, four waits: Bob's two, and Alice's, one under the name the app has
    expect(counts.sort()).toEqual([
      `${GEN_AI_TOOL_NAME_VALUE_UNKNOWN} deny 1`,
      'send_email allow 2',
      'send_email deny 1',
    ]);
  });
});
