// A Google ADK agent whose tool calls are traced by the OpenTelemetry listener, through the runner
// plugin: each call is one span, ADK's own `execute_tool`, with this package's attributes and, on
// failure, its error status. The model is scripted (no network, no API key): it calls `forecast`,
// then answers.
// Run: npx tsx examples/google-adk/main.ts
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { z } from 'zod';

// ADK gets its tracer when it loads: register the SDK first, then load ADK (and the plugin, which loads it)
// what NodeSDK sets up: the span active in ADK's tool call is ADK's, which the call joins
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
trace.setGlobalTracerProvider(tracerProvider);
const { BaseLlm, FunctionTool, InMemoryRunner, LlmAgent, LogLevel, setLogLevel } = await import('@google/adk');
const { toolCallsPlugin } = await import('otel-tool-calls/google-adk');
setLogLevel(LogLevel.ERROR);

const forecast = new FunctionTool({
  name: 'forecast',
  description: 'Forecast of a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }): Promise<string> => {
    throw new Error(`forecast service unavailable for ${city}`);
  },
});

class ScriptedModel extends BaseLlm {
  private turn = 0;
  constructor() {
    super({ model: 'scripted' });
  }
  async *generateContentAsync() {
    const call = { functionCall: { id: 'call_1', name: 'forecast', args: { city: 'Oslo' } } };
    yield { content: { role: 'model', parts: [this.turn++ === 0 ? call : { text: 'No forecast today.' }] } };
  }
  async connect(): Promise<never> {
    throw new Error('not live in this example');
  }
}

const listener = new OpenTelemetryToolCallListener({ errorPolicy: 'report' });
const agent = new LlmAgent({
  name: 'forecaster',
  model: new ScriptedModel(),
  instruction: 'Answer.',
  tools: [forecast],
});
const runner = new InMemoryRunner({ agent, appName: 'google-adk-example', plugins: [toolCallsPlugin(listener)] });
for await (const event of runner.runEphemeral({
  userId: 'user',
  newMessage: { role: 'user', parts: [{ text: 'What is the forecast for Oslo?' }] },
})) {
  for (const part of event.content?.parts ?? []) {
    if (part.functionResponse) console.log(`tool response: ${JSON.stringify(part.functionResponse.response)}`);
    if (part.text) console.log(`agent: ${part.text}`);
  }
}

for (const span of spans.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'))) {
  const { attributes } = span;
  console.log(
    `span: ${span.name} (${span.instrumentationScope.name}) id=${attributes['gen_ai.tool.call.id']}` +
      ` status=${span.status.code === 2 ? 'ERROR' : 'OK'} outcome=${attributes['tool_call.error.outcome']}`,
  );
}
