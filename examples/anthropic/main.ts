// The Anthropic SDK's tool runner with its tools traced by the OpenTelemetry listener. The model is
// a fake Messages API on 127.0.0.1 (no network, no API key): it calls `get_weather` for Oslo and for
// Atlantis (which fails), then answers. Run: npm run example:anthropic
import Anthropic from '@anthropic-ai/sdk';
import { betaZodTool } from '@anthropic-ai/sdk/helpers/beta/zod';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/anthropic';
import { z } from 'zod';
import { startFakeMessagesApi } from '../../test/helpers/fake-messages-api.mjs';
import { spanAttributes } from '../span-attributes.js';

const api = await startFakeMessagesApi((_request, index) =>
  index === 0
    ? {
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Atlantis' } },
        ],
      }
    : { content: [{ type: 'text', text: 'Rain in Oslo; Atlantis is not on the map.' }] },
);

const getWeather = betaZodTool({
  name: 'get_weather',
  description: 'Weather of a city',
  inputSchema: z.object({ city: z.string() }),
  run: async ({ city }) => {
    if (city === 'Atlantis') throw new Error(`no weather station in ${city}`);
    return `rain in ${city}`;
  },
});

// what NodeSDK registers: the SDK's tool span is active while the tool runs, and the listener joins it
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });
// the SDK's own spans go to the same provider: one span per call, the SDK's, with the listener's additions
const client = new Anthropic({ apiKey: 'offline', baseURL: api.baseURL, openTelemetry: { tracerProvider } });

const final = await client.beta.messages.toolRunner({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Weather in Oslo and Atlantis?' }],
  tools: wrapTools([getWeather], listener),
});
const [answer] = final.content;
console.log(`model: ${answer?.type === 'text' ? answer.text : ''}`);
await api.close();

const shown = ['gen_ai.tool.call.id', 'error.type', 'tool_call.error.outcome'];
for (const span of spans.getFinishedSpans()) {
  if (span.attributes['gen_ai.operation.name'] === 'execute_tool')
    console.log(`span: ${span.name}${spanAttributes(span, shown)}`);
}
