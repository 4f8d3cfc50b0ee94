// An agent loop whose tool calls are recorded as tool_use/tool_result pairs in a JSON Lines file.
// Runs offline: a scripted model stands in for the LLM. Usage: npx tsx examples/audit-log/main.ts [file]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionToolCallback, type ToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { JsonlAuditListener } from './jsonl-audit-listener.js';

const path = process.argv[2] ?? process.env.AUDIT_LOG_FILE ?? join(tmpdir(), `tool-audit-${Date.now()}.jsonl`);

const tools: ToolCallback<unknown, Promise<unknown>>[] = [
  functionToolCallback({ name: 'get_weather' }, async ({ city }: { city: string }) => `${city}: 18°C, light rain`),
  functionToolCallback({ name: 'search_flights' }, async ({ from, to }: { from: string; to: string }) => [
    { flight: 'TP 541', from, to, priceEur: 129 },
  ]),
  functionToolCallback({ name: 'convert_currency' }, async (_: { amount: number; to: string }) => {
    throw new Error('exchange-rate service unavailable (HTTP 503)');
  }),
];

type ToolCall = { id: string; name: string; input: unknown };
type ToolResult = { id: string; name: string; content: unknown };

/** The scripted model: two rounds of tool calls, then an answer that adapts to the reported failure. */
function model(step: number, results: ToolResult[]): { toolCalls: ToolCall[] } | { text: string } {
  if (step === 0) {
    return {
      toolCalls: [
        { id: 'call_1', name: 'get_weather', input: { city: 'Lisbon' } },
        { id: 'call_2', name: 'search_flights', input: { from: 'BER', to: 'LIS' } },
      ],
    };
  }
  if (step === 1) return { toolCalls: [{ id: 'call_3', name: 'convert_currency', input: { amount: 129, to: 'USD' } }] };
  return { text: `Rainy in Lisbon. Flight TP 541 costs 129 EUR; no USD price: ${String(results.at(-1)?.content)}` };
}

const logStart = existsSync(path) ? statSync(path).size : 0; // an existing log is appended to
const byName = new Map(
  ToolCallListeners.wrapAll(tools, new JsonlAuditListener(path)).map((tool) => [tool.getToolDefinition().name, tool]),
);
const results: ToolResult[] = [];
for (let step = 0; ; step++) {
  const turn = model(step, results);
  if ('text' in turn) {
    console.log(`agent: ${turn.text}\n`);
    break;
  }
  // The calls of one step run concurrently, as in agent frameworks; the listener keeps the pairs apart.
  const outputs = turn.toolCalls.map(async ({ id, name, input }) => {
    const tool = byName.get(name);
    const content = tool ? await tool.call(input, { toolCallId: id }) : `Unknown tool '${name}'`;
    return { id, name, content };
  });
  results.push(...(await Promise.all(outputs)));
}

const written = readFileSync(path).subarray(logStart).toString('utf8').trimEnd().split('\n');
console.log(written.join('\n'));
console.log(`\n${written.length} audit events written to ${path}`);
