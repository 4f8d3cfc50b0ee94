/**
 * Zero-code (the `ai` module patched by ToolCallsInstrumentation): the AI SDK's approvals are decisions,
 * as under observeToolCalls: the SDK asking (`require_approval`, once per call), the app's answers in
 * the next request's messages (`deny`, `allow`), to the logger provider registered with the Logs API.
 */
import { logs } from '@opentelemetry/api-logs';
import { stepCountIs } from 'ai';
import { ATTR_GEN_AI_TOOL_CALL_ID } from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { askDenyGrant, asked, emailingModel, inMemoryLogs, sendEmail, sent } from '../adapters/ai-sdk/approval-flow.js';
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
});
