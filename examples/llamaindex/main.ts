// A LlamaIndex.TS workflow agent (`agent()` of @llamaindex/workflow) whose tools are traced by the
// OpenTelemetry listener. The model is scripted (no network, no API key): it calls `forecast`, then
// repeats what the tool answered.
// Run: npx tsx examples/llamaindex/main.ts
import type { ChatMessage, ChatResponseChunk, LLMChatParamsStreaming, ToolCallLLM } from '@llamaindex/core/llms';
import { tool } from '@llamaindex/core/tools';
import { agent } from '@llamaindex/workflow';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/llamaindex';
import { z } from 'zod';

const forecast = tool({
  name: 'forecast',
  description: 'Forecast of a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }): Promise<string> => {
    throw new Error(`forecast service unavailable for ${city}`);
  },
});

/** The tool result the agent handed the model, if any. */
const toolResultIn = (messages: ChatMessage[]) =>
  messages
    .map((message) => (message.options as { toolResult?: { result: string } } | undefined)?.toolResult)
    .find(Boolean);

const scriptedModel = {
  supportToolCall: true,
  metadata: { model: 'scripted', temperature: 0, topP: 1, contextWindow: 4096, tokenizer: undefined },
  async chat({ messages }: LLMChatParamsStreaming) {
    const result = toolResultIn(messages);
    const chunk: ChatResponseChunk = result
      ? { delta: `The tool said: ${result.result}`, raw: null }
      : { delta: '', raw: null, options: { toolCall: [{ id: 'call_1', name: 'forecast', input: { city: 'Oslo' } }] } };
    return (async function* () {
      yield chunk;
    })();
  },
} as unknown as ToolCallLLM;

const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });

const forecaster = agent({ llm: scriptedModel, tools: wrapTools([forecast], listener) });
const result = await forecaster.run('What is the forecast for Oslo?');
console.log(`agent: ${result.data.result}`);

for (const span of spans.getFinishedSpans()) {
  const { attributes } = span;
  console.log(
    `span: ${span.name} id=${attributes['gen_ai.tool.call.id']} error.type=${attributes['error.type']} outcome=${attributes['tool_call.error.outcome']}`,
  );
}
