// @google/genai's automatic function calling with a CallableTool traced by the OpenTelemetry listener.
// The model is a fake Gemini API on 127.0.0.1 (no network, no API key): it calls `get_weather` for
// Oslo and for Atlantis (which fails) in one response, then answers. Run: npm run example:google-genai

import { type CallableTool, type FunctionCall, GoogleGenAI, type Part } from '@google/genai';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/google-genai';
import { startFakeGeminiApi } from '../../test/helpers/fake-gemini-api.mjs';
import { spanAttributes } from '../span-attributes.js';

const fc = (id: string, city: string) => ({ functionCall: { id, name: 'get_weather', args: { city } } });
const api = await startFakeGeminiApi((_request, index) =>
  index === 0
    ? { parts: [fc('fc_1', 'Oslo'), fc('fc_2', 'Atlantis')] }
    : { parts: [{ text: 'Rain in Oslo; Atlantis is not on the map.' }] },
);

// a CallableTool of the app's own (mcpToTool(client) is one too): it answers the whole batch, a call it
// cannot answer with a response.error (a throw would fail every call of the batch)
const weather: CallableTool = {
  tool: async () => ({
    functionDeclarations: [
      {
        name: 'get_weather',
        description: 'Weather of a city',
        parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ],
  }),
  callTool: async (calls: FunctionCall[]): Promise<Part[]> =>
    calls.map((call) => {
      const city = (call.args as { city: string }).city;
      const response =
        city === 'Atlantis' ? { error: `no weather station in ${city}` } : { weather: `rain in ${city}` };
      return { functionResponse: { id: call.id, name: call.name, response } };
    }),
};

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });
const ai = new GoogleGenAI({ apiKey: 'offline', httpOptions: { baseUrl: api.baseUrl } });

const response = await ai.models.generateContent({
  model: 'gemini-2.5-flash',
  contents: 'Weather in Oslo and Atlantis?',
  config: { tools: wrapTools([weather], listener) },
});
console.log(`model: ${response.text}`);
await api.close();

const shown = ['gen_ai.tool.call.id', 'error.type', 'tool_call.error.outcome'];
for (const span of spans.getFinishedSpans()) console.log(`span: ${span.name}${spanAttributes(span, shown)}`);
