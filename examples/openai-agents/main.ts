// An OpenAI Agents SDK agent whose tools are traced by the OpenTelemetry listener. The model is
// scripted (no network, no API key): it calls `forecast`, then repeats what the tool answered.
// Run: npx tsx examples/openai-agents/main.ts
import { Agent, type Model, type ModelRequest, run, setTracingDisabled, tool, Usage } from '@openai/agents';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/openai-agents';
import { z } from 'zod';

setTracingDisabled(true); // the SDK's own tracing would export to OpenAI

const forecast = tool({
  name: 'forecast',
  description: 'Forecast of a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }): Promise<string> => {
    throw new Error(`forecast service unavailable for ${city}`);
  },
});

const scriptedModel: Model = {
  async getResponse(request: ModelRequest) {
    const items = Array.isArray(request.input) ? request.input : [];
    const result = items.find((item) => item.type === 'function_call_result');
    if (!result) {
      const call = { type: 'function_call', callId: 'call_1', name: 'forecast', arguments: '{"city":"Oslo"}' } as const;
      return { usage: new Usage(), output: [call] };
    }
    const output = result.output as { text?: string } | string;
    const text = `The tool said: ${typeof output === 'string' ? output : output.text}`;
    return {
      usage: new Usage(),
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }],
    };
  },
  getStreamedResponse: () => {
    throw new Error('not streamed in this example');
  },
};

const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });

const agent = new Agent({ name: 'Forecaster', model: scriptedModel, tools: wrapTools([forecast], listener) });
const result = await run(agent, 'What is the forecast for Oslo?');
console.log(`agent: ${result.finalOutput}`);

for (const span of spans.getFinishedSpans()) {
  const { attributes } = span;
  console.log(
    `span: ${span.name} id=${attributes['gen_ai.tool.call.id']} error.type=${attributes['error.type']}` +
      ` outcome=${attributes['tool_call.error.outcome']}`,
  );
}
