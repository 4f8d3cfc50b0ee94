// A Claude Agent SDK agent (its real query() and bundled CLI) whose tool calls are traced by the
// OpenTelemetry listener through hooks: a built-in tool (Read) and a tool of an SDK MCP server. The
// model is a fake Messages API on 127.0.0.1 (no network, no API key). Run: npm run example:claude-agent-sdk
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { toolCallHooks } from 'otel-tool-calls/claude-agent-sdk';
import { instrumentServer } from 'otel-tool-calls/mcp';
import { z } from 'zod';
import { startFakeMessagesApi } from '../../test/helpers/fake-messages-api.mjs';
import { spanAttributes } from '../span-attributes.js';

const workspace = mkdtempSync(join(tmpdir(), 'claude-example-'));
writeFileSync(join(workspace, 'notes.txt'), 'remember the milk\n');
const calls = [
  { name: 'Read', input: { file_path: join(workspace, 'notes.txt') } },
  { name: 'mcp__calc__add', input: { a: 2, b: 3 } },
];
let turn = 0;
const api = await startFakeMessagesApi(() => {
  const next = calls[turn];
  if (next === undefined) return { content: [{ type: 'text', text: 'Read the notes; 2 + 3 = 5.' }] };
  turn += 1;
  return { content: [{ type: 'tool_use', id: `toolu_${turn}`, name: next.name, input: next.input }] };
});

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const listener = new OpenTelemetryToolCallListener({ tracerProvider });

const add = tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
}));
const calc = createSdkMcpServer({ name: 'calc', tools: [add] });
// the server's calls join the hooks' span of the same tool_use: one span per call, the body under it
instrumentServer(calc.instance, listener);

for await (const message of query({
  prompt: 'Read notes.txt, then add 2 and 3',
  options: {
    cwd: workspace,
    settingSources: [],
    mcpServers: { calc },
    allowedTools: ['Read', 'mcp__calc__add'],
    hooks: toolCallHooks(listener),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: workspace,
      ANTHROPIC_BASE_URL: api.baseURL,
      ANTHROPIC_API_KEY: 'offline',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
    },
  },
})) {
  if (message.type === 'result' && message.subtype === 'success') console.log(`agent: ${message.result}`);
}
await api.close();

// the tool calls' spans (the SDK MCP server's other operations, initialize and tools/list, have their own)
const shown = ['gen_ai.tool.call.id', 'mcp.method.name'];
for (const span of spans.getFinishedSpans()) {
  if (span.attributes['gen_ai.operation.name'] === 'execute_tool')
    console.log(`span: ${span.name}${spanAttributes(span, shown)}`);
}
