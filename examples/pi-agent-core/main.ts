// pi's agent loop (`Agent` of @mariozechner/pi-agent-core, the loop pi-coding-agent runs) with its tool
// calls traced by the OpenTelemetry listener. The model is a fake OpenAI-compatible API on 127.0.0.1
// (no network, no API key): it calls `get_weather` for Oslo and for Atlantis (which fails), then a tool
// the agent does not have, then answers. Run: npm run example:pi-agent-core
import { Agent, type AgentTool } from '@mariozechner/pi-agent-core';
import { Type } from '@mariozechner/pi-ai';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentAgent } from 'otel-tool-calls/pi-agent-core';
import { startFakeChatCompletions } from '../../test/helpers/fake-chat-completions.mjs';
import { fakeApiModel } from '../../test/helpers/pi-model.mjs';
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

const parameters = Type.Object({ city: Type.String() });
const getWeather: AgentTool<typeof parameters> = {
  name: 'get_weather',
  label: 'Weather',
  description: 'Weather of a city',
  parameters,
  execute: async (_toolCallId, { city }) => {
    if (city === 'Atlantis') throw new Error(`no weather station in ${city}`);
    return { content: [{ type: 'text', text: `rain in ${city}` }], details: {} };
  },
};

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });

const agent = new Agent({
  // a model of pi-ai (`getModel('openai', 'gpt-5')` and the like); here the fake API's
  initialState: { model: fakeApiModel(api.baseURL), tools: [getWeather], systemPrompt: 'You know the weather.' },
  getApiKey: () => 'offline',
  sessionId: 'session-1',
});
instrumentAgent(agent, listener);
await agent.prompt('Weather in Oslo and Atlantis?');
await api.close();

for (const message of agent.state.messages) {
  if (message.role !== 'toolResult') continue;
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  console.log(`tool result ${message.toolCallId}${message.isError ? ' (error)' : ''}: ${text}`);
}
const answer = agent.state.messages.at(-1);
if (answer?.role === 'assistant')
  console.log(`model: ${answer.content.map((part) => (part.type === 'text' ? part.text : '')).join('')}`);

const shown = [
  'gen_ai.tool.call.id',
  'gen_ai.conversation.id',
  'error.type',
  'tool_call.error.source',
  'tool_call.error.outcome',
];
for (const span of spans.getFinishedSpans()) console.log(`span: ${span.name}${spanAttributes(span, shown)}`);
