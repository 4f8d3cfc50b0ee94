// A Genkit generate call whose tool calls are observed by the OpenTelemetry listener, through
// `toolCallsMiddleware`: one span per call, Genkit's own tool action span. The model is scripted (no
// network, no API key): it calls `forecast`, then repeats what the tool answered.
// Run: npx tsx examples/genkit/main.ts
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { genkit, z } from 'genkit';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { toolCallsMiddleware } from 'otel-tool-calls/genkit';

// the app's SDK (what NodeSDK registers), not the one Genkit would start: Genkit's spans go to the
// global tracer provider, and the active span is what tells the listener that Genkit's span is the call's
disableGenkitOTelInitialization();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
trace.setGlobalTracerProvider(tracerProvider);

const ai = genkit({});
ai.defineModel({ name: 'scripted', supports: { tools: true } }, async (request) => {
  const last = request.messages.at(-1);
  const output = last?.role === 'tool' ? last.content[0]?.toolResponse?.output : undefined;
  return output === undefined
    ? {
        message: {
          role: 'model',
          content: [{ toolRequest: { name: 'forecast', ref: 'call_1', input: { city: 'Oslo' } } }],
        },
        finishReason: 'stop',
      }
    : { message: { role: 'model', content: [{ text: `The tool said: ${output}` }] }, finishReason: 'stop' };
});
const forecast = ai.defineTool(
  { name: 'forecast', description: 'Forecast of a city', inputSchema: z.object({ city: z.string() }) },
  async ({ city }): Promise<string> => {
    throw new Error(`forecast service unavailable for ${city}`);
  },
);

const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });
const response = await ai.generate({
  model: 'scripted',
  prompt: 'What is the forecast for Oslo?',
  tools: [forecast],
  use: [toolCallsMiddleware(listener)],
});
console.log(`model: ${response.text}`);

for (const span of spans
  .getFinishedSpans()
  .filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool')) {
  const { attributes } = span;
  console.log(
    `span: ${span.name} id=${attributes['gen_ai.tool.call.id']} status=${span.status.code === 2 ? 'ERROR' : 'UNSET'}`,
  );
}
