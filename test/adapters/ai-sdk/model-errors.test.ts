import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { generateText, stepCountIs, streamText, ToolLoopAgent, tool } from 'ai';
import { observeToolCalls, wrapTools } from 'otel-tool-calls/ai-sdk';
import {
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { underAiInstrumentation } from '../../instrumentation/patch-ai.js';
import { type ScriptedToolCall, toolCallThenText, toolResultsInPrompt } from './mock-model.js';

const telemetry = useTestTelemetry();

/** One step in which the model calls a tool wrong three ways, and once right. */
const THREE_WRONG_ONE_RIGHT: ScriptedToolCall[] = [
  { toolName: 'weather', input: { city: 42 }, toolCallId: 'c1' },
  { toolName: 'wheather', input: { city: 'Oslo' }, toolCallId: 'c2' },
  { toolName: 'weather', input: undefined, rawInput: '{"city":', toolCallId: 'c3' },
  { toolName: 'weather', input: { city: 'Oslo' }, toolCallId: 'c4' },
];

const tools = () => ({
  weather: tool({
    description: 'Current weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `sunny in ${city}`,
  }),
});

const toolSpans = () => telemetry.spans().filter((span) => span.name.startsWith('execute_tool '));
const byCallId = () =>
  Object.fromEntries(toolSpans().map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] as string, span]));

async function expectThreeRejectedOneRun() {
  const spans = byCallId();
  expect(Object.keys(spans).sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
  expect(spans.c1?.attributes[ATTR_ERROR_TYPE]).toBe('AI_InvalidToolInputError');
  expect(spans.c2?.attributes[ATTR_ERROR_TYPE]).toBe('AI_NoSuchToolError');
  expect(spans.c3?.attributes[ATTR_ERROR_TYPE]).toBe('AI_InvalidToolInputError');
  for (const id of ['c1', 'c2', 'c3']) {
    expect(spans[id]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans[id]?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
  }
  expect(spans.c2?.name).toBe('execute_tool wheather');
  expect(spans.c4?.status.code).toBe(SpanStatusCode.UNSET);
  expect(spans.c4?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBeUndefined();

  const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
  const sampleCount = (tool: string, errorType?: string) =>
    samples
      .filter(
        (point) => point.attributes[ATTR_GEN_AI_TOOL_NAME] === tool && point.attributes[ATTR_ERROR_TYPE] === errorType,
      )
      .reduce((n, point) => n + point.value.count, 0);
  expect(sampleCount('weather')).toBe(1);
  expect(sampleCount('weather', 'AI_InvalidToolInputError')).toBe(2);
  // the invented name is no series of its own
  expect(sampleCount('_unknown', 'AI_NoSuchToolError')).toBe(1);
  expect(samples.some((point) => point.attributes[ATTR_GEN_AI_TOOL_NAME] === 'wheather')).toBe(false);

  const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
  expect(errors.reduce((n, point) => n + point.value, 0)).toBe(3);
  for (const point of errors) expect(point.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
}

describe('observeToolCalls: the tool calls the AI SDK rejects before the tool runs are counted', () => {
  it('generateText: invalid input, an unknown tool and malformed JSON are one failed span, sample and error each', async () => {
    const model = toolCallThenText(THREE_WRONG_ONE_RIGHT);
    const result = await generateText(
      observeToolCalls(
        { model, tools: tools(), stopWhen: stepCountIs(2), prompt: 'Weather in Oslo?' },
        telemetry.listener(),
      ),
    );

    expect(result.text).toBe('done');
    await expectThreeRejectedOneRun();
    // rethrow (the default): the model reads the SDK's own error texts, as without the package
    const sent = toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? []) as {
      toolCallId: string;
      output: { type: string; value: string };
    }[];
    const c2 = sent.find((part) => part.toolCallId === 'c2');
    // ai 6 sends the error's message, ai 7 its toString() (`AI_NoSuchToolError: ...`)
    expect(c2?.output.type).toBe('error-text');
    expect(c2?.output.value).toContain("Model tried to call unavailable tool 'wheather'. Available tools: weather.");
  });

  it('streamText: the same calls, the same records', async () => {
    const result = streamText(
      observeToolCalls(
        { model: toolCallThenText(THREE_WRONG_ONE_RIGHT), tools: tools(), stopWhen: stepCountIs(2), prompt: 'Oslo?' },
        telemetry.listener(),
      ),
    );
    expect(await result.text).toBe('done');
    await expectThreeRejectedOneRun();
  });

  it('a ToolLoopAgent made with observed settings: the same records', async () => {
    const agent = new ToolLoopAgent(
      observeToolCalls(
        { model: toolCallThenText(THREE_WRONG_ONE_RIGHT), tools: tools(), stopWhen: stepCountIs(2) },
        telemetry.listener(),
      ),
    );
    const result = await agent.generate({ prompt: 'Oslo?' });
    expect(result.text).toBe('done');
    await expectThreeRejectedOneRun();
  });

  it("errorPolicy 'report': the model reads the listener's text for a rejected call, and can correct itself", async () => {
    const model = toolCallThenText(THREE_WRONG_ONE_RIGHT);
    await generateText(
      observeToolCalls(
        { model, tools: tools(), stopWhen: stepCountIs(2), prompt: 'Oslo?' },
        telemetry.listener({
          errorPolicy: 'report',
          formatError: (name, error) => `${name}: ${(error as Error).name}`,
        }),
      ),
    );

    const sent = toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? []) as {
      toolCallId: string;
      output: unknown;
    }[];
    expect(sent.find((part) => part.toolCallId === 'c2')?.output).toEqual({
      type: 'error-text',
      value: 'wheather: AI_NoSuchToolError',
    });
    expect(sent.find((part) => part.toolCallId === 'c1')?.output).toEqual({
      type: 'error-text',
      value: 'weather: AI_InvalidToolInputError',
    });
    expect(byCallId().c2?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it("the app's own repair runs first: a call it repairs is not rejected, one it cannot is", async () => {
    const repaired: string[] = [];
    await generateText(
      observeToolCalls(
        {
          model: toolCallThenText(THREE_WRONG_ONE_RIGHT),
          tools: tools(),
          stopWhen: stepCountIs(2),
          prompt: 'Oslo?',
          experimental_repairToolCall: async ({ toolCall }) => {
            if (toolCall.toolName !== 'wheather') return null;
            repaired.push(toolCall.toolCallId);
            return { ...toolCall, toolName: 'weather' };
          },
        },
        telemetry.listener(),
      ),
    );

    expect(repaired).toEqual(['c2']);
    const spans = byCallId();
    expect(spans.c2?.name).toBe('execute_tool weather');
    expect(spans.c2?.status.code).toBe(SpanStatusCode.UNSET);
    expect((await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).reduce((n, point) => n + point.value, 0)).toBe(2);
  });

  it('keeps every other option as the app gave it: inherited defaults and prototype getters', async () => {
    class Defaults {
      get stopWhen() {
        return stepCountIs(2);
      }
    }
    const options = Object.assign(new Defaults(), {
      model: toolCallThenText([{ toolName: 'weather', input: { city: 'Oslo' }, toolCallId: 'c4' }]),
      tools: tools(),
      prompt: 'Oslo?',
    });
    const result = await generateText(observeToolCalls(options, telemetry.listener()));
    expect(result.steps).toHaveLength(2);
    expect(toolSpans()).toHaveLength(1);
  });
});

/** What a model put in its arguments that must never reach a span unredacted: a secret, and a lot of text. */
const SECRET = 'sk-live-4242';
const LONG = 'x'.repeat(100_000);
/** The SDK's errors quote the arguments: `Value: {...}` for input that fails the schema, `Text: ...` for malformed JSON. */
const REJECTED_WITH_SECRETS: ScriptedToolCall[] = [
  { toolName: 'weather', input: { city: 42, token: SECRET, notes: LONG }, toolCallId: 'c1' },
  { toolName: 'weather', input: undefined, rawInput: `{"city":"${SECRET} ${LONG}`, toolCallId: 'c3' },
];
const redactSecret = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.replaceAll(SECRET, '***')
    : JSON.parse(JSON.stringify(value).replaceAll(SECRET, '***'));

/** Everything a rejected call's span says, as text: status, events (message, stacktrace) and attributes. */
const spanText = (id: string) => {
  const span = byCallId()[id];
  return JSON.stringify([span?.status, span?.events, span?.attributes]);
};

describe("observeToolCalls: a rejected call's arguments stay out of its span unless captured, redacted and bounded", () => {
  it.each([
    ['capture off, redact set', { redact: redactSecret }],
    ['capture off', {}],
  ])("%s: no argument reaches the span's status or exception event", async (_case, options) => {
    const model = toolCallThenText(REJECTED_WITH_SECRETS);
    await generateText(
      observeToolCalls(
        { model, tools: tools(), stopWhen: stepCountIs(2), prompt: 'Oslo?' },
        telemetry.listener(options),
      ),
    );

    for (const id of ['c1', 'c3']) {
      const span = byCallId()[id];
      expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('AI_InvalidToolInputError');
      expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "Invalid input for tool 'weather'" });
      const [exception] = span?.events ?? [];
      expect(exception?.attributes?.['exception.type']).toBe('AI_InvalidToolInputError');
      expect(exception?.attributes?.['exception.message']).toBe("Invalid input for tool 'weather'");
      expect(spanText(id)).not.toContain(SECRET);
      expect(spanText(id)).not.toContain('xxxxxxxxxx');
    }
  });

  it('capture on with redact: the arguments only as captured (redacted, bounded), never in the status or exception event', async () => {
    const model = toolCallThenText(REJECTED_WITH_SECRETS);
    await generateText(
      observeToolCalls(
        { model, tools: tools(), stopWhen: stepCountIs(2), prompt: 'Oslo?' },
        telemetry.listener({ captureContent: true, redact: redactSecret, maxContentLength: 200 }),
      ),
    );

    for (const id of ['c1', 'c3']) {
      const span = byCallId()[id];
      expect(span?.status.message).toBe("Invalid input for tool 'weather'");
      expect(String(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS])).toContain('***');
      expect(spanText(id)).not.toContain(SECRET);
      // the captured arguments are the span's one copy of them, bounded
      expect(spanText(id).length).toBeLessThan(10_000);
    }
  });

  it("capture on without redact: the SDK's own message, bounded in the status and the exception event", async () => {
    const model = toolCallThenText(REJECTED_WITH_SECRETS);
    await generateText(
      observeToolCalls(
        { model, tools: tools(), stopWhen: stepCountIs(2), prompt: 'Oslo?' },
        telemetry.listener({ captureContent: true }),
      ),
    );

    const span = byCallId().c1;
    expect(span?.status.message).toContain('Invalid input for tool weather');
    const [exception] = span?.events ?? [];
    expect(String(exception?.attributes?.['exception.message'])).toContain('Invalid input for tool weather');
    expect(spanText('c1').length).toBeLessThan(20_000);
  });
});

describe('zero-code (the patched generateText/streamText): the calls the SDK rejects, with nothing added', () => {
  const underInstrumentation = (run: Parameters<typeof underAiInstrumentation>[1]) =>
    underAiInstrumentation(telemetry, run);

  it('generateText: the same spans, samples and errors as observeToolCalls', async () => {
    await underInstrumentation(async (ai) => {
      const model = toolCallThenText(THREE_WRONG_ONE_RIGHT);
      await ai.generateText({ model, tools: tools(), stopWhen: stepCountIs(2), prompt: 'Oslo?' });
    });
    await expectThreeRejectedOneRun();
  });

  it('streamText too', async () => {
    await underInstrumentation(async (ai) => {
      const result = ai.streamText({
        model: toolCallThenText(THREE_WRONG_ONE_RIGHT),
        tools: tools(),
        stopWhen: stepCountIs(2),
        prompt: 'Oslo?',
      });
      await result.text;
    });
    await expectThreeRejectedOneRun();
  });

  it('observed once: options made by observeToolCalls, or tools the app wrapped itself, under the instrumentation', async () => {
    await underInstrumentation(async (ai) => {
      const own = telemetry.listener();
      await ai.generateText(
        observeToolCalls(
          { model: toolCallThenText(THREE_WRONG_ONE_RIGHT), tools: tools(), stopWhen: stepCountIs(2), prompt: 'Oslo?' },
          own,
        ),
      );
    });
    await expectThreeRejectedOneRun();
  });

  it('tools the app wrapped itself (wrapTools only): their calls by its listener, the rejected ones by the instrumentation', async () => {
    await underInstrumentation(async (ai) => {
      const model = toolCallThenText(THREE_WRONG_ONE_RIGHT);
      await ai.generateText({
        model,
        tools: wrapTools(tools(), telemetry.listener()),
        stopWhen: stepCountIs(2),
        prompt: 'Oslo?',
      });
    });
    await expectThreeRejectedOneRun();
  });
});
