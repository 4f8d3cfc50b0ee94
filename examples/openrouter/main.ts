// OpenRouter's callModel (`@openrouter/agent`) running its tools, traced by the OpenTelemetry
// listener. The model is a fake OpenRouter Responses API on 127.0.0.1 (no network, no API key): it
// calls `get_weather` for Oslo and for Atlantis (which fails) and a tool the app does not have, then
// answers. Run: npm run example:openrouter
import { callModel, OpenRouter, tool } from '@openrouter/agent';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentModelResult } from 'otel-tool-calls/openrouter';
import { z } from 'zod';
import { startFakeResponsesApi } from '../../test/helpers/fake-responses-api.mjs';
import { spanAttributes } from '../span-attributes.js';

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) });
const api = await startFakeResponsesApi((_request, index) =>
  index === 0
    ? {
        toolCalls: [
          call('call_1', 'get_weather', { city: 'Oslo' }),
          call('call_2', 'get_weather', { city: 'Atlantis' }),
          call('call_3', 'get_forecast', { city: 'Oslo' }),
        ],
      }
    : { content: 'Rain in Oslo; Atlantis is not on the map.' },
);

const getWeather = tool({
  name: 'get_weather',
  description: 'Weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    if (city === 'Atlantis') throw new Error(`no weather station in ${city}`);
    return { city, sky: 'rain' };
  },
});

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
// 'report': the model reads the listener's text for the failure, and for the tool it does not have
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });
const client = new OpenRouter({ apiKey: 'offline', serverURL: api.serverURL });

const result = instrumentModelResult(
  callModel(client, { model: 'openai/gpt-5', input: 'Weather in Oslo and Atlantis?', tools: [getWeather] }),
  listener,
);
console.log(`model: ${await result.getText()}`);
await api.close();

const shown = ['gen_ai.tool.call.id', 'error.type', 'tool_call.error.source', 'tool_call.error.outcome'];
for (const span of spans.getFinishedSpans()) console.log(`span: ${span.name}${spanAttributes(span, shown)}`);
