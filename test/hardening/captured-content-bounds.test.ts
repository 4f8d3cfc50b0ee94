import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_TOOL_CALL_REPEAT_COUNT,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

/** Captures `value` as the arguments and the result of one call; returns the two attributes. */
function capture(value: unknown, maxContentLength = 256): { args: string; result: string } {
  const echo = functionToolCallback({ name: 'echo' }, (input: unknown) => input);
  const listener = telemetry.listener({ captureContent: true, maxContentLength });
  expect(Object.is(ToolCallListeners.wrap(echo, listener).call(value), value)).toBe(true);
  const { attributes } = telemetry.span('execute_tool echo');
  return {
    args: attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] as string,
    result: attributes[ATTR_GEN_AI_TOOL_CALL_RESULT] as string,
  };
}

describe('binary data is summarised in O(1), never walked byte by byte', () => {
  it.each([
    ['a 10 MB Uint8Array', new Uint8Array(10 * 1024 * 1024), '"[Uint8Array 10485760 bytes]"'],
    ['a 10 MB Buffer (its toJSON is not called)', Buffer.alloc(10 * 1024 * 1024), '"[Buffer 10485760 bytes]"'],
    ['an ArrayBuffer', new ArrayBuffer(1024), '"[ArrayBuffer 1024 bytes]"'],
    ['a DataView', new DataView(new ArrayBuffer(8)), '"[DataView 8 bytes]"'],
    ['a Float64Array', new Float64Array(4), '"[Float64Array 32 bytes]"'],
  ])('%s', (_name, value, summary) => {
    const { args, result } = capture(value);
    expect(args).toBe(summary);
    expect(result).toBe(summary);
  });

  it('binary data inside a record is summarised in place', () => {
    const { args } = capture({ name: 'photo.png', bytes: new Uint8Array(3 * 1024 * 1024) });
    expect(JSON.parse(args)).toEqual({ name: 'photo.png', bytes: '[Uint8Array 3145728 bytes]' });
  });
});

describe('truncated captured content is well-formed UTF-16', () => {
  const isWellFormed = (text: string) =>
    !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

  it('a string cut between the halves of a surrogate pair drops the half: \'abcdef😀😀\' at 10 (as JSON, "abcdef😀😀")', () => {
    const { args } = capture('abcdef😀😀', 10);
    expect(args).toBe('"abcdef…"');
    expect(isWellFormed(args)).toBe(true);
  });

  it.each([4, 5, 6, 7, 8, 9, 10, 11])('JSON cut at %i characters never ends in a lone surrogate', (max) => {
    const { args } = capture({ text: '😀😀😀😀😀😀😀😀' }, max);
    expect(isWellFormed(args)).toBe(true);
    expect(args.length).toBeLessThanOrEqual(max);
  });
});

describe('with capture on, each getter is read once', () => {
  /** An object whose members are getters counting their reads. */
  function countedRecord(members: number, reads: Map<string, number>, prefix: string) {
    const record = {};
    for (let index = 0; index < members; index++) {
      const key = `${prefix}${index}`;
      Object.defineProperty(record, key, {
        enumerable: true,
        get: () => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return index;
        },
      });
    }
    return record;
  }
  const readsOnce = (reads: Map<string, number>) => [...reads.values()].every((count) => count === 1);

  it.each([
    ['a small record', 3],
    ['a record of 16 members', 16],
    ['a record of 40 members (walked member by member)', 40],
  ])('%s', (_name, members) => {
    const reads = new Map<string, number>();
    const { args } = capture(countedRecord(members, reads, 'm'), 4096);
    expect(Object.keys(JSON.parse(args))).toHaveLength(members);
    expect(reads.size).toBe(members);
    // read once for the arguments, once for the result (two captures of the same value), and once
    // for the result's size (tool_call.result.size)
    expect([...reads.values()].every((count) => count === 3)).toBe(true);
  });

  it('array elements that are getters, and records of getters inside an array', () => {
    const reads = new Map<string, number>();
    const array: unknown[] = [countedRecord(2, reads, 'a'), { nested: countedRecord(2, reads, 'b') }, 'tail'];
    Object.defineProperty(array, 2, {
      enumerable: true,
      get: () => {
        reads.set('element', (reads.get('element') ?? 0) + 1);
        return 'tail';
      },
    });
    const listener = telemetry.listener({ captureContent: true, maxContentLength: 4096 });
    const tool = functionToolCallback({ name: 'sink' }, () => undefined);
    ToolCallListeners.wrap(tool, listener).call(array);
    const args = telemetry.span('execute_tool sink').attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] as string;
    expect(JSON.parse(args)).toEqual([{ a0: 0, a1: 1 }, { nested: { b0: 0, b1: 1 } }, 'tail']);
    expect(reads.size).toBe(5);
    expect(readsOnce(reads)).toBe(true);
  });

  it('with repeated calls counted too (their default): once per call, none after the call has ended, and the repeats still seen', async () => {
    const listener = telemetry.listener({ captureContent: true, maxContentLength: 4096 });
    const tool = ToolCallListeners.wrap(
      functionToolCallback({ name: 'search' }, async () => 'ok'),
      listener,
    );
    const readsByCall: Map<string, number>[] = [];
    const readsWhenDone: number[] = [];
    const total = (reads: Map<string, number>) => [...reads.values()].reduce((sum, count) => sum + count, 0);
    await telemetry.withParent(async () => {
      // three calls with equal arguments, each its own object of getters, keys in another order the third time
      for (const prefix of ['m', 'm', 'm']) {
        const reads = new Map<string, number>();
        readsByCall.push(reads);
        const input =
          readsByCall.length === 3 ? reversed(countedRecord(3, reads, prefix)) : countedRecord(3, reads, prefix);
        await tool.call(input);
        readsWhenDone.push(total(reads));
      }
    });
    for (const reads of readsByCall) expect(readsOnce(reads) && reads.size === 3).toBe(true);
    // nothing read after each call ended
    expect(readsByCall.map(total)).toEqual(readsWhenDone);
    const counts = telemetry
      .spans()
      .filter((span) => span.name === 'execute_tool search')
      .map((span) => span.attributes[ATTR_TOOL_CALL_REPEAT_COUNT]);
    expect(counts).toEqual([undefined, 1, 2]);
  });

  /** The same getters on a new object, defined in the reverse order. */
  function reversed(record: object): object {
    const descriptors = Object.getOwnPropertyDescriptors(record);
    return Object.defineProperties({}, Object.fromEntries(Object.entries(descriptors).reverse()));
  }
});
