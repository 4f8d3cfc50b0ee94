import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_TOOL_NAME,
  METRIC_TOOL_CALL_RESULT_SIZE,
  TOOL_CALL_RESULT_SIZE_BUCKETS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { EXACT_RESULT_SIZE, resultSize } from '../../../src/otel/result-size.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

/** What the model reads of a result that is not a string: its JSON, in UTF-8. */
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

describe('tool_call.result.size', () => {
  it('a 10,000-character result is one sample of 10,000 bytes', async () => {
    const read = ToolCallListeners.wrap(
      functionToolCallback({ name: 'read_file' }, async () => 'a'.repeat(10_000)),
      telemetry.listener(),
    );
    await read.call({ path: 'README.md' });
    const [point, ...others] = await telemetry.histogramPoints(METRIC_TOOL_CALL_RESULT_SIZE);
    expect(others).toEqual([]);
    expect(point?.attributes).toEqual({ [ATTR_GEN_AI_TOOL_NAME]: 'read_file' });
    expect(point?.value.count).toBe(1);
    expect(point?.value.sum).toBe(10_000);
    expect(point?.value.buckets.boundaries).toEqual([...TOOL_CALL_RESULT_SIZE_BUCKETS]);
    expect((await telemetry.metric(METRIC_TOOL_CALL_RESULT_SIZE))?.descriptor.unit).toBe('By');
  });

  it('counts an object by its JSON, and records nothing for a failure (reported or rethrown) or when turned off', async () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const result = { rows: [{ id: 1, name: 'Zoë' }], total: 1 };
    await ToolCallListeners.wrap(
      functionToolCallback({ name: 'query' }, async () => result),
      listener,
    ).call({});
    await ToolCallListeners.wrap(
      functionToolCallback({ name: 'broken' }, async () => {
        throw new Error('db down');
      }),
      listener,
    ).call({});
    await ToolCallListeners.wrap(
      functionToolCallback({ name: 'quiet' }, async () => 'x'),
      telemetry.listener({ recordResultSize: false }),
    ).call({});
    const points = await telemetry.histogramPoints(METRIC_TOOL_CALL_RESULT_SIZE);
    expect(points.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value.sum])).toEqual([
      ['query', jsonBytes(result)],
    ]);
  });
});

describe('resultSize (result-size.ts)', () => {
  it('is exact within the bound: UTF-8 of a string, JSON.stringify of anything else', () => {
    const strings = ['', 'plain', 'Zoë 東京 🎉', 'lone \ud800 surrogate', 'quote " and \\ and \n\t\u0001'];
    for (const text of strings) expect(resultSize(text)).toBe(Buffer.byteLength(text, 'utf8'));
    const values: unknown[] = [
      0,
      -1.5e-7,
      true,
      null,
      Number.NaN,
      strings,
      { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1], e: new Date(0) },
      { nested: { deep: [{ k: 'Zoë' }, [1, [2, [3]]]] }, 'ké"y': 'v' },
      new Map([['a', 1]]),
    ];
    for (const value of values) expect(resultSize(value), JSON.stringify(value)).toBe(jsonBytes(value));
    expect(resultSize(undefined)).toBe(0);
    expect(resultSize(new Uint8Array(300))).toBe(300);
  });

  it('estimates a 50 MB string within 1 %, at about the cost of a 1 MB one (it reads 64 Ki characters of it)', () => {
    const unit = 'The quick brown fox — Zoë jumps 東京 ';
    const text = unit.repeat(Math.ceil(50_000_000 / unit.length));
    const exact = Buffer.byteLength(text, 'utf8');
    expect(Math.abs(resultSize(text) - exact) / exact).toBeLessThan(0.01);
    expect(Math.abs(resultSize({ text }) - jsonBytes({ text })) / exact).toBeLessThan(0.01);
  });

  it('estimates a long array of records past the bound from those it read, within 1 %', () => {
    const rows = Array.from({ length: 200_000 }, (_, id) => ({ id: id % 1000, name: `row ${id % 1000}`, ok: true }));
    const exact = jsonBytes(rows);
    expect(exact).toBeGreaterThan(EXACT_RESULT_SIZE);
    expect(Math.abs(resultSize(rows) - exact) / exact).toBeLessThan(0.01);
  });

  it('never throws: a cycle counts as "[Circular]", a throwing getter gives no size', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(resultSize(cyclic)).toBe(jsonBytes({ a: 1, self: '[Circular]' }));
    const throwing = Object.defineProperty({}, 'bad', {
      enumerable: true,
      get() {
        throw new Error('unreadable');
      },
    });
    expect(resultSize(throwing)).toBeNaN();
    expect(resultSize({ big: 10n })).toBe('{"big":10}'.length);
  });
});
