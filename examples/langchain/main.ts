// LangChain.js tools whose calls become OpenTelemetry spans, run the way agents run them: each
// tool call of the model's AIMessage goes to `tool.invoke(toolCall)` and comes back as a ToolMessage.
// Runs offline: a scripted AIMessage stands in for the chat model. Usage: npx tsx examples/langchain/main.ts
import { AIMessage, type ToolMessage } from '@langchain/core/messages';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/langchain';
import { ATTR_GEN_AI_TOOL_CALL_ID, ATTR_TOOL_CALL_ERROR_OUTCOME } from 'otel-tool-calls/semconv';
import { z } from 'zod';
import { spanAttributes } from '../span-attributes.js';

// OpenTelemetry wiring; in an app, `startToolCallTelemetry()` from `otel-tool-calls/setup` does this.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
trace.setGlobalTracerProvider(provider);

const searchDocs = tool(async ({ query }) => `2 pages match '${query}': tracing.md, metrics.md`, {
  name: 'search_docs',
  description: 'Searches the documentation',
  schema: z.object({ query: z.string() }),
});
const openTicket = tool(
  async (): Promise<string> => {
    throw new Error('ticket system is read-only during maintenance');
  },
  { name: 'open_ticket', description: 'Opens a support ticket', schema: z.object({ title: z.string() }) },
);
const tools = wrapTools(
  [searchDocs, openTicket],
  // 'report': a failing tool's error becomes its ToolMessage, so the agent can go on
  new OpenTelemetryToolCallListener({ errorPolicy: 'report', agentName: 'support-agent' }),
);

const aiMessage = new AIMessage({
  content: '',
  tool_calls: [
    { id: 'call_1', name: 'search_docs', args: { query: 'span export' }, type: 'tool_call' },
    { id: 'call_2', name: 'open_ticket', args: { title: 'Spans missing' }, type: 'tool_call' },
  ],
});
const byName = new Map<string, StructuredToolInterface>(tools.map((t) => [t.name, t]));
const toolMessages: ToolMessage[] = await Promise.all(
  (aiMessage.tool_calls ?? []).map((toolCall) => byName.get(toolCall.name)!.invoke({ ...toolCall, type: 'tool_call' })),
);
for (const message of toolMessages) console.log(`ToolMessage ${message.tool_call_id}: ${message.content}`);

console.log('\nspans:');
for (const span of exporter.getFinishedSpans()) {
  const status = span.status.code === SpanStatusCode.ERROR ? `ERROR "${span.status.message}"` : 'OK';
  const shown = [ATTR_GEN_AI_TOOL_CALL_ID, ATTR_ERROR_TYPE, ATTR_TOOL_CALL_ERROR_OUTCOME];
  console.log(`${span.name} ${status}${spanAttributes(span, shown)}`);
}
await provider.shutdown();
