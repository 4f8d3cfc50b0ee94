import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { generateText, stepCountIs, tool } from 'ai';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { toolCallThenText, toolResultsInPrompt } from './mock-model.js';

const telemetry = useTestTelemetry();

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** Runs `body` under an active `agent run` span, as an app's own instrumentation would. */
function underAgentRun<T>(body: () => Promise<T>): Promise<T> {
  return telemetry.tracer.startActiveSpan('agent run', async (span) => {
    try {
      return await body();
    } finally {
      span.end();
    }
  });
}

const weather = tool({
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) =>
    // the tool's own work, e.g. an HTTP call an instrumentation would trace
    telemetry.tracer.startActiveSpan('GET /weather', async (span) => {
      span.end();
      return { city, temperature: 21 };
    }),
});

describe('wrapTools (AI SDK) with the OpenTelemetry listener', () => {
  it('makes the execute_tool span a child of the span active where generateText was called', async () => {
    const listener = telemetry.listener();

    const result = await underAgentRun(() =>
      generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Paris' }, toolCallId: 'call-1' }),
        tools: wrapTools({ weather }, listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Paris?',
      }),
    );

    expect(result.text).toBe('done');
    const agentRun = telemetry.span('agent run');
    const toolSpan = telemetry.span('execute_tool weather');
    expect(parentOf(toolSpan)).toBe(agentRun.spanContext().spanId);
    expect(toolSpan.spanContext().traceId).toBe(agentRun.spanContext().traceId);
    expect(toolSpan.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: 'weather',
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call-1',
      [ATTR_GEN_AI_TOOL_DESCRIPTION]: 'Current weather of a city',
    });
    expect(toolSpan.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('makes a span created inside the tool body a child of the tool span', async () => {
    const listener = telemetry.listener();

    await underAgentRun(() =>
      generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Oslo' }, toolCallId: 'call-2' }),
        tools: wrapTools({ weather }, listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Oslo?',
      }),
    );

    const toolSpan = telemetry.span('execute_tool weather');
    expect(parentOf(telemetry.span('GET /weather'))).toBe(toolSpan.spanContext().spanId);
  });

  it('keeps concurrent tool calls of one step apart: each span has its own call id and its own children', async () => {
    const listener = telemetry.listener();
    const calls = ['Paris', 'Oslo', 'Rome'].map((city, index) => ({
      toolName: 'weather',
      input: { city },
      toolCallId: `call-${index}`,
    }));

    await underAgentRun(() =>
      generateText({
        model: toolCallThenText(calls),
        tools: wrapTools({ weather }, listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in three cities?',
      }),
    );

    const spans = telemetry.spans();
    const toolSpans = spans.filter((span) => span.name === 'execute_tool weather');
    expect(toolSpans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).sort()).toEqual([
      'call-0',
      'call-1',
      'call-2',
    ]);
    const children = spans.filter((span) => span.name === 'GET /weather').map(parentOf);
    expect(children.sort()).toEqual(toolSpans.map((span) => span.spanContext().spanId).sort());
  });

  it("with errorPolicy 'report', the model reads the formatted error and the span records the failure", async () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const broken = tool({
      description: 'Always fails',
      inputSchema: z.object({ city: z.string() }),
      execute: async (): Promise<string> => {
        throw new RangeError('city not found');
      },
    });
    const model = toolCallThenText({ toolName: 'broken', input: { city: 'Atlantis' }, toolCallId: 'call-3' });

    await generateText({
      model,
      tools: wrapTools({ broken }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Atlantis?',
    });

    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({
        toolCallId: 'call-3',
        output: { type: 'text', value: "Tool 'broken' failed: city not found" },
      }),
    ]);
    const toolSpan = telemetry.span('execute_tool broken');
    expect(toolSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: 'city not found' });
    expect(toolSpan.attributes[ATTR_ERROR_TYPE]).toBe('RangeError');
    expect(toolSpan.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it('by default rethrows: the AI SDK gets the original error as a tool-error and the span says rethrown', async () => {
    const listener = telemetry.listener();
    const failure = new Error('database down');
    const broken = tool({
      inputSchema: z.object({ id: z.number() }),
      execute: async (): Promise<string> => {
        throw failure;
      },
    });
    const model = toolCallThenText({ toolName: 'broken', input: { id: 1 }, toolCallId: 'call-4' });

    const result = await generateText({
      model,
      tools: wrapTools({ broken }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Look up 1',
    });

    expect(result.steps[0]?.content).toContainEqual(
      expect.objectContaining({ type: 'tool-error', toolCallId: 'call-4', error: failure }),
    );
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({
        toolCallId: 'call-4', // ai 6 sends the message, ai 7 `String(error)`
        output: { type: 'error-text', value: expect.stringMatching(/^(Error: )?database down$/) },
      }),
    ]);
    const toolSpan = telemetry.span('execute_tool broken');
    expect(toolSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(toolSpan.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    expect(toolSpan.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('keeps a streaming tool span open until the stream ends, with the spans made while streaming as children', async () => {
    const listener = telemetry.listener();
    const ended: boolean[] = [];
    const progress = tool({
      inputSchema: z.object({ steps: z.number() }),
      async *execute({ steps }) {
        for (let step = 1; step <= steps; step++) {
          telemetry.tracer.startSpan(`step ${step}`).end();
          // the tool span must still be open while the tool is producing chunks
          ended.push(telemetry.spans().some((span) => span.name === 'execute_tool progress'));
          yield { step };
        }
      },
    });

    const result = await generateText({
      model: toolCallThenText({ toolName: 'progress', input: { steps: 2 }, toolCallId: 'call-5' }),
      tools: wrapTools({ progress }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Go',
    });

    expect(result.steps[0]?.content).toContainEqual(
      expect.objectContaining({ type: 'tool-result', toolCallId: 'call-5', output: { step: 2 } }),
    );
    expect(ended).toEqual([false, false]);
    const toolSpan = telemetry.span('execute_tool progress');
    expect(parentOf(telemetry.span('step 1'))).toBe(toolSpan.spanContext().spanId);
    expect(parentOf(telemetry.span('step 2'))).toBe(toolSpan.spanContext().spanId);
  });

  it("nests under the AI SDK's own ai.toolCall span when the AI SDK's telemetry is on", async () => {
    const listener = telemetry.listener();

    await underAgentRun(() =>
      generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Lima' }, toolCallId: 'call-6' }),
        tools: wrapTools({ weather }, listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Lima?',
        experimental_telemetry: { isEnabled: true, tracer: telemetry.tracer },
      }),
    );

    const aiToolCall = telemetry.span('ai.toolCall');
    const toolSpan = telemetry.span('execute_tool weather');
    expect(parentOf(toolSpan)).toBe(aiToolCall.spanContext().spanId);
    expect(aiToolCall.attributes['ai.toolCall.id']).toBe(toolSpan.attributes[ATTR_GEN_AI_TOOL_CALL_ID]);
    expect(parentOf(telemetry.span('GET /weather'))).toBe(toolSpan.spanContext().spanId);
    // and the whole tree still hangs from the app's span
    expect(parentOf(telemetry.span('ai.generateText'))).toBe(telemetry.span('agent run').spanContext().spanId);
  });
});
