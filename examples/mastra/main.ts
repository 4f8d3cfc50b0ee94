// A Mastra agent whose tools are traced by the OpenTelemetry listener, with Mastra's own OTel bridge
// on: each tool call is one span, the bridge's, carrying this package's attributes and error. The model
// is the AI SDK's mock model (no network, no API key): it calls `forecast`, then answers.
// Run: npx tsx examples/mastra/main.ts
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { Observability } from '@mastra/observability';
import { OtelBridge } from '@mastra/otel-bridge';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { MockLanguageModelV3 } from 'ai/test';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/mastra';
import { z } from 'zod';

const forecast = createTool({
  id: 'forecast',
  description: 'Forecast of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }): Promise<string> => {
    throw new Error(`forecast service unavailable for ${city}`);
  },
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'forecast', input: '{"city":"Oslo"}' }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'No forecast today.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    },
  ],
});

// what NodeSDK sets up: the span active in Mastra's tool call is the bridge's, which the call joins
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });

const agent = new Agent({
  id: 'forecaster',
  name: 'Forecaster',
  instructions: 'Answer with the forecast.',
  model,
  tools: wrapTools({ forecast }, listener),
});
const observability = new Observability({
  configs: { default: { serviceName: 'mastra-example', bridge: new OtelBridge({ tracerProvider }) } },
});
const mastra = new Mastra({ agents: { agent }, logger: false, observability });
const result = await mastra.getAgent('agent').generate('What is the forecast for Oslo?');
await observability.shutdown(); // the bridge ends its spans after generate returns
console.log(`agent: ${result.text}`);

for (const span of spans.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'))) {
  const { attributes } = span;
  console.log(
    `span: ${span.name} (${span.instrumentationScope.name}) id=${attributes['gen_ai.tool.call.id']}` +
      ` status=${span.status.code === 2 ? 'ERROR' : 'OK'} outcome=${attributes['tool_call.error.outcome']}`,
  );
}
