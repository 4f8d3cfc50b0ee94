// sdk-trace (2.9+ and 3.x alike), so that the compatibility run takes this test as it is
import { AlwaysOffSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_GEN_AI_TOOL_CALL_RESULT } from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundedJson, quote } from '../../src/otel/bounded-json.js';
import { cutJson, MIN_CUT_LENGTH } from '../../src/otel/json-cut.js';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
afterEach(() => {
  vi.unstubAllEnvs();
});

const listener = telemetry.listener;

/**
 * `text` is `full` when it fits in `maxLength`; else valid JSON within `maxLength`, marked as cut
 * (`…`), and a start of `full` closed by the cut marks (json-cut.ts).
 */
function expectCutOf(text: string, full: string, maxLength: number): void {
  if (full.length <= maxLength) {
    expect(text).toBe(full);
    return;
  }
  expect(text.length).toBeLessThanOrEqual(maxLength);
  expect(() => JSON.parse(text)).not.toThrow();
  expect(text).toContain('…');
  const kept = text.replace(/(…"|,?"…"(:"…")?)?[\]}]*$/, '');
  expect(full.startsWith(kept)).toBe(true);
}
const lookup = functionToolCallback({ name: 'lookup' }, (input: { city: string }) => ({
  city: input.city,
  temperature: 21,
}));

describe('content capture', () => {
  it('is off by default: neither arguments nor result are recorded', () => {
    ToolCallListeners.wrap(lookup, listener()).call({ city: 'Paris' });
    const span = telemetry.span('execute_tool lookup');
    expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS);
    expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_TOOL_CALL_RESULT);
  });

  it('records arguments and result as JSON when captureContent is true', () => {
    ToolCallListeners.wrap(lookup, listener({ captureContent: true })).call({ city: 'Paris' });
    const span = telemetry.span('execute_tool lookup');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('{"city":"Paris"}');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toBe('{"city":"Paris","temperature":21}');
  });

  it('records a string result as a JSON string, and one that is the JSON text of an object or array as that JSON', () => {
    const capture = listener({ captureContent: true });
    for (const [name, result] of [
      ['say', 'hello "world"'],
      ['fetch', '{"temperature": 21, "conditions": "sunny"}'],
      ['list', '[1, 2]'],
      ['cite', '[1] Introduction'], // starts like JSON, is not
    ]) {
      ToolCallListeners.wrap(
        functionToolCallback({ name: name as string }, () => result),
        capture,
      ).call(undefined);
    }
    const recorded = (tool: string) => telemetry.span(`execute_tool ${tool}`).attributes[ATTR_GEN_AI_TOOL_CALL_RESULT];
    expect(recorded('say')).toBe('"hello \\"world\\""');
    expect(recorded('fetch')).toBe('{"temperature": 21, "conditions": "sunny"}');
    expect(recorded('list')).toBe('[1, 2]');
    expect(recorded('cite')).toBe('"[1] Introduction"');
  });

  it('does not record the result of a failed call', () => {
    const tool = functionToolCallback({ name: 'f' }, (_input: string) => {
      throw new Error('x');
    });
    expect(() => ToolCallListeners.wrap(tool, listener({ captureContent: true })).call('in')).toThrow();
    const span = telemetry.span('execute_tool f');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('"in"');
    expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_TOOL_CALL_RESULT);
  });

  it('is turned on by OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, and the option wins', () => {
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'true');
    ToolCallListeners.wrap(lookup, listener()).call({ city: 'Oslo' });
    ToolCallListeners.wrap(lookup, listener({ captureContent: false })).call({ city: 'Rome' });
    const [on, off] = telemetry.spans();
    expect(on?.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('{"city":"Oslo"}');
    expect(off?.attributes).not.toHaveProperty(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS);
  });

  it.each(['1', 'yes', 'TRUE '])('accepts only true/false in the environment variable (%j: %s)', (value) => {
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', value);
    ToolCallListeners.wrap(lookup, listener()).call({ city: 'Oslo' });
    const captured = telemetry.span('execute_tool lookup').attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS];
    expect(captured).toBe(value.trim().toLowerCase() === 'true' ? '{"city":"Oslo"}' : undefined);
  });

  it('serializes nothing for a span that is not recording (sampled out, or no SDK)', () => {
    let redactions = 0;
    const redact = (value: unknown) => {
      redactions++;
      return value;
    };
    const sampledOut = new TracerProvider({ sampler: new AlwaysOffSampler() });
    ToolCallListeners.wrap(lookup, listener({ captureContent: true, redact, tracerProvider: sampledOut })).call({
      city: 'Oslo',
    });
    ToolCallListeners.wrap(lookup, new OpenTelemetryToolCallListener({ captureContent: true, redact })).call({
      city: 'Oslo',
    });
    expect(redactions).toBe(0);
    ToolCallListeners.wrap(lookup, listener({ captureContent: true, redact })).call({ city: 'Oslo' });
    expect(redactions).toBe(2);
  });

  it('applies redact before capture, for arguments and result', () => {
    const seen: string[] = [];
    ToolCallListeners.wrap(
      lookup,
      listener({
        captureContent: true,
        redact: (value, { kind, toolName }) => {
          seen.push(`${kind}:${toolName}`);
          return kind === 'arguments' ? { city: '[redacted]' } : value;
        },
      }),
    ).call({ city: 'Paris' });
    const span = telemetry.span('execute_tool lookup');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('{"city":"[redacted]"}');
    expect(seen).toEqual(['arguments:lookup', 'result:lookup']);
  });

  it('records a placeholder, never the raw value, when redact throws', () => {
    ToolCallListeners.wrap(
      lookup,
      listener({
        captureContent: true,
        redact: () => {
          throw new Error('redactor bug');
        },
      }),
    ).call({ city: 'secret-city' });
    const span = telemetry.span('execute_tool lookup');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('"[redaction failed]"');
    expect(JSON.stringify(span.attributes)).not.toContain('secret-city');
  });

  it('cuts each captured value inside to maxContentLength characters, still JSON, the cut marked with …', () => {
    const echo = functionToolCallback({ name: 'echo' }, (input: unknown) => input);
    const capture = listener({ captureContent: true, maxContentLength: 24 });
    ToolCallListeners.wrap(echo, capture).call('x'.repeat(100));
    ToolCallListeners.wrap(echo, capture).call({ city: 'Paris', notes: 'y'.repeat(100), days: [1, 2] });
    ToolCallListeners.wrap(echo, capture).call([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    ToolCallListeners.wrap(echo, capture).call(JSON.stringify({ rows: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] }));
    const captured = telemetry.spans().map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]);
    expect(captured).toEqual([
      `"${'x'.repeat(21)}…"`, // a string cut short ends with the mark
      '{"city":"Paris","…":"…"}', // an object cut short gets a last member
      '[1,2,3,4,5,6,7,8,9,"…"]', // an array a last element
      '{"rows":[{"id":1},"…"]}', // a string that is JSON text: cut inside its values too
    ]);
    for (const span of telemetry.spans()) {
      expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toBe(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]);
    }
  });
});

describe('captured values are JSON (the registry gives them a JSON schema)', () => {
  const values = fc.oneof(
    fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
    }),
    fc.json(), // a string that is JSON text (a tool that returns JSON.stringify(...))
    fc.string({ unit: 'binary' }),
  );

  it('every captured argument and result JSON.parses and is within maxContentLength, for any bound from 3 (property)', () => {
    const echo = functionToolCallback({ name: 'echo' }, (input: unknown) => input);
    fc.assert(
      fc.property(values, fc.integer({ min: MIN_CUT_LENGTH, max: 300 }), (value, maxContentLength) => {
        ToolCallListeners.wrap(echo, listener({ captureContent: true, maxContentLength })).call(value);
        const { attributes } = telemetry.spans().at(-1) as { attributes: Record<string, unknown> };
        const captured = [attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS], attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]];
        // no result is recorded for undefined
        for (const text of value === undefined ? captured.slice(0, 1) : captured) {
          expect(typeof text).toBe('string');
          expect((text as string).length).toBeLessThanOrEqual(maxContentLength);
          expect(() => JSON.parse(text as string)).not.toThrow();
        }
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('boundedJson', () => {
  /** A value whose property reads are counted through a Proxy, at every depth. */
  function counted<T extends object>(value: T, counter: { reads: number }): T {
    return new Proxy(value, {
      get(target, key, receiver) {
        counter.reads++;
        const property = Reflect.get(target, key, receiver);
        return property !== null && typeof property === 'object' ? counted(property, counter) : property;
      },
    });
  }
  const rows = (count: number) => ({
    query: 'select',
    rows: Array.from({ length: count }, (_, id) => ({ id, name: `user ${id}`, email: `u${id}@example.com` })),
  });

  it('reads about as many properties of a 50 MB argument as of a 5 KB one', () => {
    const small = rows(100); // ~5 KB of JSON
    const large = rows(1_000_000); // ~50 MB of JSON
    expect(JSON.stringify(small).length).toBeGreaterThan(4_096);
    const smallReads = { reads: 0 };
    const largeReads = { reads: 0 };
    const smallText = boundedJson(counted(small, smallReads), 4096);
    const largeText = boundedJson(counted(large, largeReads), 4096);
    // cut inside the last record, closed: a few characters under the bound
    expectCutOf(smallText, JSON.stringify(small), 4096);
    expectCutOf(largeText, JSON.stringify(large), 4096);
    expect(smallText.length).toBeGreaterThan(4096 - 64);
    expect(largeText).toBe(smallText);
    expect(largeReads.reads).toBeLessThanOrEqual(smallReads.reads + 10);
    expect(largeReads.reads).toBeLessThan(2_000);
  });

  it('reads only the first properties of an object with a million keys', () => {
    const wide = Object.fromEntries(Array.from({ length: 1_000_000 }, (_, n) => [`key${n}`, `value ${n}`]));
    const reads = { reads: 0 };
    const text = boundedJson(counted(wide, reads), 4096);
    expectCutOf(text, JSON.stringify(wide), 4096);
    expect(text.length).toBeGreaterThan(4096 - 64);
    expect(reads.reads).toBeLessThan(2_000);
  });

  /** What boundedJson must give for a JSON value: JSON.stringify's text, or that text cut by cutJson. */
  const expected = (full: string, maxLength: number) =>
    full.length <= maxLength ? full : (cutJson(full, maxLength) ?? '…');

  it('writes exactly JSON.stringify, or that text cut inside, closed and marked (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 300 }), (value, maxLength) => {
        const full = JSON.stringify(value);
        const text = boundedJson(value, maxLength);
        expect(text).toBe(expected(full, maxLength));
        if (maxLength >= MIN_CUT_LENGTH) expectCutOf(text, full, maxLength);
      }),
      { numRuns: 5_000 },
    );
    // long lists of small records: the native runs of the serializer
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 0 })), fc.jsonValue({ maxDepth: 1 })), {
          maxLength: 300,
        }),
        fc.integer({ min: 1, max: 5_000 }),
        (value, maxLength) => {
          const full = JSON.stringify(value);
          expect(boundedJson(value, maxLength)).toBe(expected(full, maxLength));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('quotes a string as JSON.stringify does, whatever its characters (property)', () => {
    const special = fc.constantFrom(
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      '\ud83d',
      '\ude00',
      '😀',
      'é',
      'a',
    );
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: special, maxLength: 40 })), (text) => {
        expect(quote(text)).toBe(JSON.stringify(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('writes long strings (escaped outside the native call) exactly as JSON.stringify, cut or not, never inside a surrogate pair (property)', () => {
    const unit = fc.constantFrom('"', '\\', '\n', '\t', '\ud83d', '\ude00', '😀', 'é', 'a', 'b', ' ');
    const long = fc.string({ unit, minLength: 200, maxLength: 1_500 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ city: fc.string(), notes: long }),
          fc.array(fc.oneof(long, fc.record({ id: fc.integer(), body: long })), { maxLength: 8 }),
        ),
        fc.integer({ min: 1, max: 6_000 }),
        (value, maxLength) => {
          const full = JSON.stringify(value);
          const text = boundedJson(value, maxLength);
          expect(text).toBe(expected(full, maxLength));
          if (maxLength >= MIN_CUT_LENGTH) expectCutOf(text, full, maxLength);
          // a cut never leaves the first half of a pair alone
          expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(text)).toBe(/[\ud800-\udbff](?![\udc00-\udfff])/.test(full));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('slices a huge string before escaping it', () => {
    const text = boundedJson({ blob: 'a'.repeat(50 * 1024 * 1024) }, 100);
    expect(text).toBe(`{"blob":"${'a'.repeat(88)}…"}`);
  });

  it('matches JSON.stringify for plain values', () => {
    const value = { a: 1, b: [true, null, 'x', undefined, () => 1], c: { d: 'é"\n' }, e: undefined, f: Number.NaN };
    expect(boundedJson(value, 10_000)).toBe(JSON.stringify(value));
  });

  it('records circular values, BigInt, symbols, throwing getters and throwing toJSON safely', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const getter = Object.defineProperty({ ok: 1 }, 'secret', {
      enumerable: true,
      get() {
        throw new Error('no access');
      },
    });
    const badToJson = {
      toJSON: () => {
        throw new Error('toJSON failed');
      },
    };
    expect(boundedJson(circular, 1000)).toBe('{"name":"loop","self":"[Circular]"}');
    expect(boundedJson({ big: 10n ** 30n }, 1000)).toBe('{"big":"1000000000000000000000000000000"}');
    expect(boundedJson({ [Symbol('k')]: 1, s: Symbol('v'), list: [Symbol('x')] }, 1000)).toBe('{"list":[null]}');
    expect(boundedJson(getter, 1000)).toBe('{"ok":1,"secret":"[Unreadable]"}');
    expect(boundedJson({ value: badToJson }, 1000)).toBe('{"value":"[Unreadable]"}');
    expect(boundedJson(badToJson, 1000)).toBe('"[Unreadable]"');
  });

  it('keeps shared (non-circular) references', () => {
    const shared = { id: 1 };
    expect(boundedJson({ a: shared, b: shared }, 1000)).toBe('{"a":{"id":1},"b":{"id":1}}');
  });
});
