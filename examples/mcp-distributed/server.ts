// The MCP server process of the example: a weather tool over stdio, instrumented with
// instrumentServer. Its span is the child of the agent's tools/call span, from the traceparent the
// agent sent in params._meta. Started by main.ts; stdout is the MCP channel.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { trace } from '@opentelemetry/api';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentServer } from 'otel-tool-calls/mcp';
import { z } from 'zod';
import { startTelemetry } from './telemetry.js';

const telemetry = startTelemetry('mcp-weather-server', process.env.EXAMPLE_COLLECTOR_URL ?? 'http://127.0.0.1:4318');
const tracer = trace.getTracer('mcp-weather-server');

const server = instrumentServer(
  new McpServer({ name: 'weather', version: '1.0.0' }),
  new OpenTelemetryToolCallListener(),
);
server.registerTool(
  'weather',
  { description: 'Current weather of a city', inputSchema: { city: z.string() } },
  async ({ city }) =>
    // the tool's own work: a child of the server span
    tracer.startActiveSpan('lookup forecast', async (span) => {
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { content: [{ type: 'text' as const, text: `sunny in ${city}` }] };
      } finally {
        span.end();
      }
    }),
);

// the agent ends stdin to stop this process: hand the last spans over first
process.stdin.on('end', () => {
  // shutdown() never rejects: a failed export is one stderr line
  void telemetry.shutdown().finally(() => process.exit(0));
});
await server.connect(new StdioServerTransport());
