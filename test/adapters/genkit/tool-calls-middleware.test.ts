import { SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { type Genkit, genkit, z } from 'genkit';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { toolCallsMiddleware } from 'otel-tool-calls/genkit';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestTelemetry } from '../../helpers/otel-sdk.js';
import { recordingListener } from '../../helpers/recording-listener.js';

// Genkit's spans go to the global tracer provider: the test SDK's, and Genkit starts no SDK of its own
const telemetry = createTestTelemetry();
beforeAll(() => {
  disableGenkitOTelInitialization();
  trace.setGlobalTracerProvider(telemetry.tracerProvider);
});

const listener = (options: ConstructorParameters<typeof OpenTelemetryToolCallListener>[0] = {}) =>
  new OpenTelemetryToolCallListener({
    tracerProvider: telemetry.tracerProvider,
    meterProvider: telemetry.meterProvider,
    ...options,
  });

interface ScriptedCall {
  readonly ref: string;
  readonly name: string;
  readonly input: unknown;
}

/**
 * A Genkit app with a scripted model: its first turn requests the given tool calls, its second
 * answers with the tool outputs it was given, joined by ` | `. The answer is what the model saw.
 */
function scriptedApp(calls: readonly ScriptedCall[]): Genkit {
  const ai = genkit({});
  ai.defineModel({ name: 'scripted', supports: { tools: true } }, async (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') {
      const text = last.content.map((part) => String(part.toolResponse?.output)).join(' | ');
      return { message: { role: 'model', content: [{ text }] }, finishReason: 'stop' };
    }
    return {
      message: { role: 'model', content: calls.map((toolRequest) => ({ toolRequest })) },
      finishReason: 'stop',
    };
  });
  return ai;
}

function defineTools(ai: Genkit, prefix: string) {
  const weather = ai.defineTool(
    { name: `${prefix}Weather`, description: 'Current weather of a city', inputSchema: z.object({ city: z.string() }) },
    async ({ city }) => `sunny in ${city}`,
  );
  const forecast = ai.defineTool(
    { name: `${prefix}Forecast`, description: 'Forecast of a city', inputSchema: z.object({ city: z.string() }) },
    async ({ city }): Promise<string> => {
      throw new Error(`no forecast for ${city}`);
    },
  );
  return { weather, forecast };
}

async function generate(prefix: string, calls: readonly ScriptedCall[], use: ReturnType<typeof toolCallsMiddleware>[]) {
  const ai = scriptedApp(calls);
  const tools = defineTools(ai, prefix);
  const response = await ai.generate({ model: 'scripted', prompt: 'weather?', tools: Object.values(tools), use });
  return response.text;
}

const spansOf = (name: string) =>
  telemetry.spans().filter((span) => span.name === name || span.name.endsWith(` ${name}`));

describe('toolCallsMiddleware on a Genkit generate call', () => {
  it("gives one span per call (Genkit's tool action span, joined), one duration sample, the call id, the result unchanged", async () => {
    const calls: ScriptedCall[] = [
      { ref: 'call_1', name: 'okWeather', input: { city: 'Oslo' } },
      { ref: 'call_2', name: 'okWeather', input: { city: 'Bergen' } },
    ];
    const plain = await generate(
      'plain',
      [
        { ref: 'call_1', name: 'plainWeather', input: { city: 'Oslo' } },
        { ref: 'call_2', name: 'plainWeather', input: { city: 'Bergen' } },
      ],
      [],
    );

    const observed = await generate('ok', calls, [toolCallsMiddleware(listener())]);

    expect(observed).toBe(plain);
    expect(observed).toBe('sunny in Oslo | sunny in Bergen');
    const spans = spansOf('okWeather');
    expect(spans.map((span) => span.name)).toEqual(['okWeather', 'okWeather']);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).sort()).toEqual(['call_1', 'call_2']);
    expect(spans.every((span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'execute_tool')).toBe(true);
    expect(spans.every((span) => span.attributes['genkit:type'] === 'action')).toBe(true);
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points.find((point) => point.attributes['gen_ai.tool.name'] === 'okWeather')?.value.count).toBe(2);
  });

  it('counts a failing tool as an error, and rethrown, the generate call fails with the same error', async () => {
    const call = { ref: 'call_3', name: 'badForecast', input: { city: 'Oslo' } };

    const failure = await generate('bad', [call], [toolCallsMiddleware(listener())]).catch((error: unknown) => error);

    expect((failure as Error).message).toContain('no forecast for Oslo');
    const [span] = spansOf('badForecast');
    expect(spansOf('badForecast')).toHaveLength(1);
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_3');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    const counted = errors.find((point) => point.attributes['gen_ai.tool.name'] === 'badForecast');
    expect(counted?.value).toBe(1);
    expect(counted?.attributes['tool_call.error.outcome']).toBe('rethrown');
  });

  it("a failed call's span (Genkit's, ended when Genkit ended it) has error.type, the outcome and one exception event", async () => {
    const call = { ref: 'call_6', name: 'endForecast', input: { city: 'Oslo' } };

    await generate('end', [call], [toolCallsMiddleware(listener())]).catch(() => undefined);

    const spans = spansOf('endForecast');
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no forecast for Oslo' });
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('Error');
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    expect(span?.events.filter((event) => event.name === 'exception')).toHaveLength(1);
    expect(span?.attributes['genkit:state']).toBe('error');
  });

  it("a successful call's captured result is on Genkit's span", async () => {
    const call = { ref: 'call_7', name: 'capWeather', input: { city: 'Oslo' } };

    await generate('cap', [call], [toolCallsMiddleware(listener({ captureContent: true }))]);

    const [span] = spansOf('capWeather');
    expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toContain('sunny in Oslo');
    expect(span?.attributes['genkit:state']).toBe('success');
    expect(span?.ended).toBe(true);
  });

  it('reported: the model gets the listener text as the tool output', async () => {
    const call = { ref: 'call_4', name: 'rptForecast', input: { city: 'Oslo' } };
    const reporting = listener({
      errorPolicy: 'report',
      formatError: (_name, error) => `sorry: ${(error as Error).message}`,
    });

    const observed = await generate('rpt', [call], [toolCallsMiddleware(reporting)]);

    expect(observed).toContain('sorry:');
    expect(observed).toContain('no forecast for Oslo');
  });

  it('hands the listener the call id, the input and the output', async () => {
    const recording = recordingListener();

    await generate(
      'rec',
      [{ ref: 'call_5', name: 'recWeather', input: { city: 'Oslo' } }],
      [toolCallsMiddleware(recording)],
    );

    expect(recording.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(recording.events[0]).toMatchObject({
      toolName: 'recWeather',
      toolInput: { city: 'Oslo' },
      call: { toolCallId: 'call_5', framework: 'genkit' },
    });
    expect(recording.events[1]).toMatchObject({
      result: { toolResponse: { name: 'recWeather', ref: 'call_5', output: 'sunny in Oslo' } },
    });
  });
});

describe('toolCallsMiddleware: a call Genkit refuses for its input', () => {
  it("is the model's failure, and its arguments stay out of the span (status, exception event)", async () => {
    const secret = 'sk-live-4242';
    const refused = generate(
      'refused',
      [{ ref: 'r1', name: 'refusedWeather', input: { city: 42, token: secret } }],
      [toolCallsMiddleware(listener({ redact: () => '[redacted]' }))],
    );
    // rethrown (the default): Genkit's own refusal, which quotes the arguments to the app
    await expect(refused).rejects.toThrow(secret);

    const [span, ...others] = spansOf('refusedWeather');
    expect(others).toEqual([]);
    expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('r1');
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "Invalid input for tool 'refusedWeather'" });
    expect(span?.events.map((event) => event.attributes?.['exception.message'])).toEqual([
      "Invalid input for tool 'refusedWeather'",
    ]);
    expect(JSON.stringify([span?.status, span?.events, span?.attributes])).not.toContain(secret);
  });
});
