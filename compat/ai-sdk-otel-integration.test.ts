import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { generateText, stepCountIs, tool } from 'ai';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { observeToolCalls, wrapTools } from 'otel-tool-calls/ai-sdk';
import { ATTR_GEN_AI_TOOL_CALL_ID, METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallThenText } from '../test/adapters/ai-sdk/mock-model.js';
import { createTestTelemetry } from '../test/helpers/otel-sdk.js';

/**
 * ai 7 no longer makes OpenTelemetry spans itself (ai 6's `experimental_telemetry: { tracer }`): the
 * spans come from a telemetry integration of the `@ai-sdk/otel` package. This is the ai 7 version of
 * test/adapters/ai-sdk-opentelemetry.test.ts "nests under the AI SDK's own ai.toolCall span", which
 * the compat run leaves out, plus what a user of the new GenAI integration gets.
 */
const telemetry = createTestTelemetry();
const { tracer, tracerProvider } = telemetry;

afterAll(() => telemetry.shutdown());

let before = 0;
beforeEach(() => {
  before = telemetry.spans().length;
});

/** The spans finished by the current test. */
const spans = () => telemetry.spans().slice(before);
const named = (name: string) => spans().filter((span) => span.name === name);
const executeToolSamples = async () =>
  (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).reduce((n, point) => n + point.value.count, 0);
const parentOf = (span: { parentSpanContext?: { spanId: string } }) => span.parentSpanContext?.spanId;

const weather = tool({
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) =>
    tracer.startActiveSpan('GET /weather', async (span) => {
      span.end();
      return { city, temperature: 21 };
    }),
});

function underAgentRun<T>(body: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan('agent run', async (span) => {
    try {
      return await body();
    } finally {
      span.end();
    }
  });
}

describe('wrapTools with the OpenTelemetry listener under ai 7 and @ai-sdk/otel', () => {
  it("nests under the AI SDK's ai.toolCall span of the LegacyOpenTelemetry integration", async () => {
    const listener = new OpenTelemetryToolCallListener({ tracerProvider });

    await underAgentRun(() =>
      generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Lima' }, toolCallId: 'call-6' }),
        tools: wrapTools({ weather }, listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Lima?',
        telemetry: { integrations: [new LegacyOpenTelemetry({ tracer })] },
      }),
    );

    const [aiToolCall] = named('ai.toolCall');
    const [toolSpan] = named('execute_tool weather');
    expect(named('ai.toolCall')).toHaveLength(1);
    expect(named('execute_tool weather')).toHaveLength(1);
    expect(parentOf(toolSpan!)).toBe(aiToolCall!.spanContext().spanId);
    expect(aiToolCall!.attributes['ai.toolCall.id']).toBe(toolSpan!.attributes[ATTR_GEN_AI_TOOL_CALL_ID]);
    expect(parentOf(named('GET /weather')[0]!)).toBe(toolSpan!.spanContext().spanId);
    expect(parentOf(named('ai.generateText')[0]!)).toBe(named('agent run')[0]!.spanContext().spanId);
  });

  it("with the GenAI OpenTelemetry integration, the listener joins the AI SDK's own execute_tool span: one span, one sample", async () => {
    const listener = new OpenTelemetryToolCallListener({ tracerProvider, meterProvider: telemetry.meterProvider });
    const samplesBefore = await executeToolSamples();

    await underAgentRun(() =>
      generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Kyiv' }, toolCallId: 'call-7' }),
        tools: wrapTools({ weather }, listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Kyiv?',
        telemetry: { integrations: [new OpenTelemetry({ tracer })] },
      }),
    );

    // the integration's span (scope of `tracer`) stands for the call: no second one of ours
    const toolSpans = named('execute_tool weather');
    expect(toolSpans).toHaveLength(1);
    expect(toolSpans[0]!.instrumentationScope.name).not.toBe('otel-tool-calls');
    expect(toolSpans[0]!.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call-7');
    expect(parentOf(named('GET /weather')[0]!)).toBe(toolSpans[0]!.spanContext().spanId);
    // and the histogram, which the integration does not record, has the call's one sample
    expect((await executeToolSamples()) - samplesBefore).toBe(1);
  });

  it("with keepNestedSpans, the listener keeps its own span as a child of the integration's", async () => {
    const listener = new OpenTelemetryToolCallListener({ tracerProvider, keepNestedSpans: true });

    await underAgentRun(() =>
      generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Kyiv' }, toolCallId: 'call-8' }),
        tools: wrapTools({ weather }, listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Kyiv?',
        telemetry: { integrations: [new OpenTelemetry({ tracer })] },
      }),
    );

    const toolSpans = named('execute_tool weather');
    const ours = toolSpans.filter((span) => span.instrumentationScope.name === 'otel-tool-calls');
    const theirs = toolSpans.filter((span) => span.instrumentationScope.name !== 'otel-tool-calls');
    expect(ours).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(parentOf(ours[0]!)).toBe(theirs[0]!.spanContext().spanId);
  });

  it('with observeToolCalls, the calls the SDK rejects are spans of their own beside the joined one: one span, one sample each', async () => {
    const listener = new OpenTelemetryToolCallListener({ tracerProvider, meterProvider: telemetry.meterProvider });
    const samplesBefore = await executeToolSamples();

    await underAgentRun(() =>
      generateText(
        observeToolCalls(
          {
            model: toolCallThenText([
              { toolName: 'weather', input: { city: 42 }, toolCallId: 'call-9' },
              { toolName: 'wheather', input: { city: 'Kyiv' }, toolCallId: 'call-10' },
              { toolName: 'weather', input: { city: 'Kyiv' }, toolCallId: 'call-11' },
            ]),
            tools: { weather },
            stopWhen: stepCountIs(3),
            prompt: 'Weather in Kyiv?',
            telemetry: { integrations: [new OpenTelemetry({ tracer })] },
          },
          listener,
        ),
      ),
    );

    const ids = spans()
      .filter((span) => span.name.startsWith('execute_tool '))
      .map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])
      .sort();
    expect(ids).toEqual(['call-10', 'call-11', 'call-9']);
    expect((await executeToolSamples()) - samplesBefore).toBe(3);
  });
});
