// An MCP server and client in one process (in-memory transport), every tool call traced by the
// OpenTelemetry listener on the server side. Run: npx tsx examples/mcp/main.ts
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentServer } from 'otel-tool-calls/mcp';
import { z } from 'zod';
import { spanAttributes } from '../span-attributes.js';

const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
// 'report': a failing tool answers the model with a short text instead of failing the request
const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });

const server = instrumentServer(new McpServer({ name: 'weather', version: '1.0.0' }), listener);
// registered after instrumentServer: observed all the same
server.registerTool(
  'weather',
  { description: 'Current weather', inputSchema: { city: z.string() } },
  async ({ city }) => ({
    content: [{ type: 'text', text: `sunny in ${city}` }],
  }),
);
server.registerTool('forecast', { inputSchema: { city: z.string() } }, async () => {
  throw new Error('forecast service unavailable');
});
server.registerTool('alerts', { inputSchema: { city: z.string() } }, async ({ city }) => ({
  content: [{ type: 'text', text: `no alert feed for ${city}` }],
  isError: true, // MCP's own way to fail: counted as an error (error.type tool_error, as a throw is)
}));

const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
const client = new Client({ name: 'example-client', version: '1.0.0' });
await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);

for (const name of ['weather', 'forecast', 'alerts']) {
  const result = await client.callTool({ name, arguments: { city: 'Oslo' } });
  const text = (result.content as { text: string }[]).map((part) => part.text).join(' ');
  console.log(`${name}: ${result.isError ? 'error' : 'ok'} -> ${text}`);
}

console.log('\nspans:');
const shown = ['gen_ai.tool.type', 'mcp.method.name', 'jsonrpc.request.id', 'error.type'];
for (const span of spans.getFinishedSpans()) console.log(`${span.name}${spanAttributes(span, shown)}`);
await client.close();
