// The openai SDK's tool runner (`chat.completions.runTools`) with its tools traced by the OpenTelemetry
// listener. The model is a fake Chat Completions API on 127.0.0.1 (no network, no API key): it calls
// `get_weather` for Oslo and for Atlantis (which fails), then a tool the app does not have, then
// answers. Run: npm run example:openai
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import OpenAI from 'openai';
import { zodFunction } from 'openai/helpers/zod';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/openai';
import { z } from 'zod';
import { startFakeChatCompletions } from '../../test/helpers/fake-chat-completions.js';
import { spanAttributes } from '../span-attributes.js';

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) });
const api = await startFakeChatCompletions(
  (_request, index) =>
    [
      {
        toolCalls: [
          call('call_1', 'get_weather', { city: 'Oslo' }),
          call('call_2', 'get_weather', { city: 'Atlantis' }),
        ],
      },
      { toolCalls: [call('call_3', 'get_forecast', { city: 'Oslo' })] },
    ][index] ?? { content: 'Rain in Oslo; Atlantis is not on the map.' },
);

const getWeather = zodFunction({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  function: async ({ city }) => {
    if (city === 'Atlantis') throw new Error(`no weather station in ${city}`);
    return `rain in ${city}`;
  },
});

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });
const client = new OpenAI({ apiKey: 'offline', baseURL: api.baseURL });

const runner = client.chat.completions.runTools({
  model: 'gpt-5',
  messages: [{ role: 'user', content: 'Weather in Oslo and Atlantis?' }],
  tools: wrapTools([getWeather], listener),
});
console.log(`model: ${await runner.finalContent()}`);
await api.close();

const shown = ['gen_ai.tool.call.id', 'error.type', 'tool_call.error.source', 'tool_call.error.outcome'];
for (const span of spans.getFinishedSpans()) console.log(`span: ${span.name}${spanAttributes(span, shown)}`);
