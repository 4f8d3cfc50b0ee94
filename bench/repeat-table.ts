/**
 * The repeat table's memory (issue 40), started by bench/run.ts in a process of its own with
 * --expose-gc: 10,000 traces through one OpenTelemetry listener on the real SDK, each trace an
 * agent run of small calls (a search repeated once, two other tools), then the heap after full
 * collections, against the same traces through a listener with `recordRepeatedCalls: false`. The
 * table keeps the most recent traces only (src/otel/repeated-calls.ts), so the figure stays what
 * it is at 10,000 traces however many more come.
 *
 * Usage: repeat-table.ts --out <file.json> [--traces 10000]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { context, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import {
  functionToolCallback,
  OpenTelemetryToolCallListener,
  type OpenTelemetryToolCallListenerOptions,
  ToolCallListeners,
} from 'otel-tool-calls';
import { installSdk } from './lib/sdk-world.js';
import type { RepeatTableResult } from './lib/targets.js';

const { values } = parseArgs({ options: { out: { type: 'string' }, traces: { type: 'string', default: '10000' } } });
const traces = Number(values.traces);
if (!values.out || !Number.isSafeInteger(traces) || traces < 1) {
  throw new Error('usage: repeat-table.ts --out <file.json> [--traces <n>]');
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('repeat-table.ts needs node --expose-gc');

const sdk = installSdk();

function settledHeap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** `traces` agent runs, each in a trace of its own, through a listener made with `options`; the listener is kept. */
async function run(options: OpenTelemetryToolCallListenerOptions): Promise<OpenTelemetryToolCallListener> {
  const listener = new OpenTelemetryToolCallListener(options);
  const tool = (name: string) =>
    ToolCallListeners.wrap(
      functionToolCallback({ name }, async (input: { query: string }) => input.query.length),
      listener,
    );
  const [search, fetchPage, summarize] = [tool('search'), tool('fetch_page'), tool('summarize')];
  for (let n = 1; n <= traces; n++) {
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: n.toString(16).padStart(32, 'a'),
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
    });
    await context.with(parent, async () => {
      await search.call({ query: `weather in city ${n}` });
      await fetchPage.call({ query: `https://example.com/${n}` });
      await search.call({ query: `weather in city ${n}` });
      await summarize.call({ query: 'short' });
    });
  }
  return listener;
}

const off = await run({ recordRepeatedCalls: false });
const heapOffBytes = settledHeap();
const on = await run({});
const heapOnBytes = settledHeap();
// both kept alive to the measurement: the difference is the table
const result: RepeatTableResult = {
  traces,
  callsPerTrace: 4,
  tableBytes: heapOnBytes - heapOffBytes,
  heapOnBytes,
  heapOffBytes,
};
if (off === on) throw new Error('unreachable');
await sdk.shutdown();
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
