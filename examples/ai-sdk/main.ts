// A Vercel AI SDK agent loop (generateText with tools) whose tool calls become OpenTelemetry spans.
// Runs offline: the AI SDK's mock model stands in for the LLM. Usage: npx tsx examples/ai-sdk/main.ts
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { ATTR_GEN_AI_TOOL_CALL_ID, ATTR_TOOL_CALL_ERROR_OUTCOME } from 'otel-tool-calls/semconv';
import { z } from 'zod';
import { spanAttributes } from '../span-attributes.js';

// OpenTelemetry wiring; in an app, `startToolCallTelemetry()` from `otel-tool-calls/setup` does this.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
trace.setGlobalTracerProvider(provider);
const tracer = trace.getTracer('example');

const tools = wrapTools(
  {
    getWeather: tool({
      description: 'Current weather of a city',
      inputSchema: z.object({ city: z.string() }),
      // the span of the tool's own HTTP call becomes a child of the tool's span
      execute: ({ city }) =>
        tracer.startActiveSpan('GET api.weather.example', async (span) => {
          span.end();
          return { city, celsius: 18, sky: 'light rain' };
        }),
    }),
    convertCurrency: tool({
      description: 'Converts an amount between currencies',
      inputSchema: z.object({ amount: z.number(), to: z.string() }),
      execute: async (): Promise<number> => {
        throw new Error('exchange-rate service unavailable (HTTP 503)');
      },
    }),
  },
  // 'report': a failing tool's error becomes its result, so the model can answer anyway
  new OpenTelemetryToolCallListener({ errorPolicy: 'report', agentName: 'travel-agent' }),
);

const usage = {
  inputTokens: { total: 9, noCache: 9, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 9, text: 9, reasoning: 0 },
};
const call = (toolCallId: string, toolName: string, input: unknown) =>
  ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }) as const;
const model = new MockLanguageModelV3({
  // First turn: two tool calls; second turn: an answer built from the tool results it was sent.
  doGenerate: async ({ prompt }) => {
    const results = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
    if (results.length === 0) {
      const content = [
        call('call_1', 'getWeather', { city: 'Lisbon' }),
        call('call_2', 'convertCurrency', { amount: 129, to: 'USD' }),
      ];
      return { content, finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] };
    }
    const seen = results.map((part) =>
      part.type === 'tool-result' && 'value' in part.output ? JSON.stringify(part.output.value) : '',
    );
    return {
      content: [{ type: 'text', text: `Based on ${seen.join(' and ')}` }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    };
  },
});

const result = await tracer.startActiveSpan('agent run', async (span) => {
  try {
    return await generateText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Lisbon, and 129 EUR in USD?',
    });
  } finally {
    span.end();
  }
});
console.log(`agent: ${result.text}\n`);

// The span tree of the run, children indented under their parent, with the attributes worth seeing.
const shown = [ATTR_GEN_AI_TOOL_CALL_ID, ATTR_ERROR_TYPE, ATTR_TOOL_CALL_ERROR_OUTCOME];
const spans = exporter.getFinishedSpans();
const print = (span: ReadableSpan, depth: number): void => {
  const status = span.status.code === SpanStatusCode.ERROR ? ` ERROR "${span.status.message}"` : '';
  console.log(`${'  '.repeat(depth)}${span.name}${status}${spanAttributes(span, shown)}`);
  for (const child of spans.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId)) {
    print(child, depth + 1);
  }
};
for (const root of spans.filter((span) => span.parentSpanContext === undefined)) print(root, 0);
await provider.shutdown();
