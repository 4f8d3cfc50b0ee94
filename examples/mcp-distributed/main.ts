// One MCP tool call across two processes, one trace: this agent process calls the weather tool of
// an MCP server process (server.ts) over stdio. Both processes export their spans to a collector
// this example runs on 127.0.0.1, and the spans are printed as one tree; with the compose stack up,
// the same trace is in Jaeger across the two services. Run: npm run example:mcp-distributed
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { trace } from '@opentelemetry/api';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentClient } from 'otel-tool-calls/mcp';
import { otlpTracesUrl } from '../demo/trace-delivery.js';
import { formatTree, startSpanCollector } from './span-collector.js';
import { startTelemetry } from './telemetry.js';

const collector = await startSpanCollector();
const telemetry = startTelemetry('mcp-agent', collector.url);

const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--import', 'tsx', new URL('./server.ts', import.meta.url).pathname],
  env: { ...(process.env as Record<string, string>), EXAMPLE_COLLECTOR_URL: collector.url },
  cwd: new URL('../..', import.meta.url).pathname,
});
const client = instrumentClient(
  new Client({ name: 'weather-agent', version: '1.0.0' }),
  new OpenTelemetryToolCallListener(),
);
// the agent's own span: what a framework's invoke_agent span would be
const answer = await trace.getTracer('weather-agent').startActiveSpan('invoke_agent weather-agent', async (span) => {
  try {
    // connected inside the agent's span: the session's initialize exchange is in the same trace
    await client.connect(transport);
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    return (result.content as { text: string }[]).map((part) => part.text).join(' ');
  } finally {
    span.end();
  }
});
console.log(`weather: ${answer}\n`);

// the server's spans arrive on their own: wait for them (bounded), then stop the server
const deadline = Date.now() + 15_000;
while (!collector.spans.some((span) => span.service === 'mcp-weather-server' && span.name === 'lookup forecast')) {
  if (Date.now() > deadline) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
await client.close();
await telemetry.shutdown();

console.log(formatTree(collector.spans));
const traces = new Set(collector.spans.map((span) => span.traceId));
const services = new Set(collector.spans.map((span) => span.service));
console.log(
  `\n${collector.spans.length} spans, ${traces.size === 1 ? 'one trace' : `${traces.size} traces`} (${[...traces].join(', ')}), ` +
    `${services.size} services (${[...services].sort().join(', ')})`,
);
const { jaeger } = telemetry;
console.log(
  jaeger.delivered > 0
    ? `Jaeger: the agent's ${jaeger.delivered} spans delivered to ${otlpTracesUrl()}; open http://localhost:16686 and find the trace`
    : `Jaeger: not reachable at ${otlpTracesUrl()} (start the compose stack to see the trace there)`,
);
await collector.close();
