import { trace } from '@opentelemetry/api';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_GEN_AI_TOOL_NAME, ATTR_TOOL_CALL_REPEAT_COUNT, METRIC_TOOL_CALL_REPEATS } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import {
  MAX_ENTRIES,
  MAX_TRACES,
  RepeatedCalls,
  repeatKey,
  repeatKeyOfCaptured,
} from '../../../src/otel/repeated-calls.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const search = functionToolCallback({ name: 'search' }, (input: unknown) => ({ hits: 1, input }));

/** The repeat counts of the spans named `execute_tool {tool}`, in the order they ended. */
function repeatCounts(tool = 'search'): unknown[] {
  return telemetry
    .spans()
    .filter((span) => span.name === `execute_tool ${tool}`)
    .map((span) => span.attributes[ATTR_TOOL_CALL_REPEAT_COUNT]);
}

async function repeatsByTool(): Promise<Record<string, number>> {
  const points = await telemetry.counterPoints(METRIC_TOOL_CALL_REPEATS);
  return Object.fromEntries(points.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value]));
}

describe('repeated calls (tool_call.repeats, tool_call.repeat.count)', () => {
  it('a call repeated four times in one trace: 3 repeats, the spans count 1, 2, 3', async () => {
    const tool = ToolCallListeners.wrap(search, telemetry.listener());
    await telemetry.withParent(async () => {
      for (let i = 0; i < 4; i++) await tool.call({ query: 'weather in Lisbon', limit: 5 });
    });
    expect(repeatCounts()).toEqual([undefined, 1, 2, 3]);
    expect(await repeatsByTool()).toEqual({ search: 3 });
    const metric = await telemetry.metric(METRIC_TOOL_CALL_REPEATS);
    expect(metric?.descriptor.unit).toBe('{call}');
  });

  it('ignores key order, tells different arguments apart, and counts within one trace only', async () => {
    const tool = ToolCallListeners.wrap(search, telemetry.listener());
    await telemetry.withParent(async () => {
      await tool.call({ query: 'a', filters: { lang: 'en', year: 2026 } });
      await tool.call({ filters: { year: 2026, lang: 'en' }, query: 'a' }); // the same, keys reordered
      await tool.call({ query: 'b', filters: { lang: 'en', year: 2026 } }); // other arguments
      await tool.call([1, 2]);
      await tool.call([2, 1]); // an array's order matters
    });
    // the same call again, in a trace of its own
    await telemetry.withParent(() => tool.call({ query: 'a', filters: { lang: 'en', year: 2026 } }));
    expect(repeatCounts()).toEqual([undefined, 1, undefined, undefined, undefined, undefined]);
    expect(await repeatsByTool()).toEqual({ search: 1 });
  });

  it('counts arguments that differ only beyond the content bound as the same', async () => {
    const tool = ToolCallListeners.wrap(search, telemetry.listener({ maxContentLength: 64 }));
    const head = 'x'.repeat(100);
    await telemetry.withParent(async () => {
      await tool.call({ text: `${head}-first` });
      await tool.call({ text: `${head}-second` });
    });
    expect(repeatCounts()).toEqual([undefined, 1]);
  });

  it('counts a tool the app does not have under _unknown, by the name the model gave', async () => {
    const listener = telemetry.listener();
    const made = (name: string) =>
      ToolCallListeners.wrap(
        functionToolCallback({ name }, async () => {
          throw new Error('no such tool');
        }),
        listener,
      );
    await telemetry.withParent(async () => {
      for (const name of ['serach', 'serach', 'find']) {
        await expect(made(name).call({ q: 1 }, { rejection: 'unknown_tool' })).rejects.toThrow('no such tool');
      }
    });
    expect(repeatCounts('serach')).toEqual([undefined, 1]);
    expect(await repeatsByTool()).toEqual({ _unknown: 1 });
  });

  it('counts nothing with no trace (no tracer provider), and nothing when turned off', async () => {
    const untraced = new OpenTelemetryToolCallListener({
      tracerProvider: trace.getTracerProvider(), // no SDK registered: spans without ids
      meterProvider: telemetry.meterProvider,
    });
    for (let i = 0; i < 3; i++) await ToolCallListeners.wrap(search, untraced).call({ q: 1 });
    const off = ToolCallListeners.wrap(search, telemetry.listener({ recordRepeatedCalls: false }));
    await telemetry.withParent(async () => {
      for (let i = 0; i < 3; i++) await off.call({ q: 1 });
    });
    expect(repeatCounts()).toEqual([undefined, undefined, undefined]);
    expect(await repeatsByTool()).toEqual({});
  });
});

describe('the repeat table (repeated-calls.ts)', () => {
  const key = (input: unknown) => repeatKey(input, 4096);

  it('remembers the most recent traces only', () => {
    const table = new RepeatedCalls();
    for (let i = 0; i < MAX_TRACES + 100; i++) table.before(`trace-${i}`, 'search', key({ i }));
    expect(table.size).toBe(MAX_TRACES);
    // the oldest left: its call counts as a first again; a recent one still repeats
    expect(table.before('trace-0', 'search', key({ i: 0 }))).toBe(0);
    expect(table.before(`trace-${MAX_TRACES + 99}`, 'search', key({ i: MAX_TRACES + 99 }))).toBe(1);
  });

  it('holds at most MAX_ENTRIES entries in all: the oldest traces are forgotten first, the current one keeps counting', () => {
    const table = new RepeatedCalls();
    // traces of 63 tools × 4 distinct arguments: each tool 2 entries (its name, its first arguments), 1 per other arguments
    const perTrace = 63 * (2 + 3);
    const fill = (trace: number) => {
      for (let tool = 0; tool < 63; tool++) {
        for (let argument = 0; argument < 4; argument++) table.before(`t${trace}`, `tool${tool}`, key({ argument }));
      }
    };
    for (let trace = 0; trace < 80; trace++) fill(trace);
    // the oldest traces were forgotten to make room: as many are left as fit, each whole
    expect(table.size).toBe(Math.floor(MAX_ENTRIES / perTrace));
    expect(table.before('t79', 'tool0', key({ argument: 3 }))).toBe(1);
    expect(table.before('t0', 'tool0', key({ argument: 0 }))).toBe(0);
  });

  it('keeps no argument: a key is the canonical JSON, short, or the hash of a long one', () => {
    expect(key({ b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
    expect(typeof key({ text: 'y'.repeat(500) })).toBe('number');
    // read back from the captured text: the same key for plain data, keys in any order
    expect(repeatKeyOfCaptured('{"b":1,"a":"x"}', 4096)).toBe(key({ a: 'x', b: 1 }));
    expect(repeatKeyOfCaptured(JSON.stringify({ text: 'y'.repeat(500) }), 4096)).toBe(key({ text: 'y'.repeat(500) }));
  });

  it('compares long arguments by hash, bounded: cycles, getters that throw and BigInts do not throw', () => {
    const table = new RepeatedCalls();
    const cyclic: Record<string, unknown> = { text: 'y'.repeat(500) };
    cyclic.self = cyclic;
    const throwing = Object.defineProperty({}, 'bad', {
      enumerable: true,
      get() {
        throw new Error('unreadable');
      },
    });
    for (const input of [cyclic, throwing, { n: 10n }]) {
      expect(table.before('t', 'odd', key(input))).toBe(0);
      expect(table.before('t', 'odd', key(input))).toBe(1);
      table.before('other-trace', 'odd', 0); // a fresh trace for the next input
    }
  });
});
