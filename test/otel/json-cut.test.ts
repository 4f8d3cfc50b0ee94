import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutJson, MIN_CUT_LENGTH } from '../../src/otel/json-cut.js';

/** `text` with its closing cut marks taken off: what was kept of the text it was cut from. */
const kept = (text: string) => text.replace(/(…"|,?"…"(:"…")?)?[\]}]*$/, '');

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('cutJson: a JSON text cut to a bound stays JSON, the cut marked', () => {
  it('cuts inside the values and closes what is open: a string ends with …, an array gets "…", an object "…":"…"', () => {
    expect(cutJson('{"notes":"abcdefghij"}', 15)).toBe('{"notes":"ab…"}');
    expect(cutJson('[1,2,3,4,5]', 8)).toBe('[1,"…"]');
    expect(cutJson('{"a":1,"b":2,"c":3}', 16)).toBe('{"a":1,"…":"…"}');
    expect(cutJson('{"a":1,"b":2}', 12)).toBe('{"…":"…"}');
    expect(cutJson('[[[[1]]]]', 7)).toBe('[["…"]]');
    expect(cutJson('{"a":1}', 6)).toBe('"…"'); // no room for any of it
    expect(cutJson('"a\\nb"', 5)).toBe('"a…"'); // never inside an escape sequence
    expect(cutJson('"abcdef😀😀"', 10)).toBe('"abcdef…"'); // never between the halves of a pair
    expect(cutJson('{"a": [1, 2]}', 100)).toBe('{"a": [1, 2]}'); // a text that fits is itself
  });

  it('any JSON text, compact or indented, at any bound from 3: valid JSON within the bound, a start of the text closed by the marks (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom(0, 2),
        fc.integer({ min: MIN_CUT_LENGTH, max: 400 }),
        (value, indent, maxLength) => {
          const text = JSON.stringify(value, null, indent);
          const cut = cutJson(text, maxLength);
          if (text.length <= maxLength) {
            expect(cut).toBe(text);
            return;
          }
          expect(cut).toBeDefined();
          expect((cut as string).length).toBeLessThanOrEqual(maxLength);
          expect(parses(cut as string)).toBe(true);
          expect(cut).toContain('…');
          expect(text.startsWith(kept(cut as string))).toBe(true);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('a text that is not JSON: nothing, or valid JSON made of a start of it; one that fits is taken as JSON.parse takes it (property)', () => {
    const unit = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      ',',
      ' ',
      '\\',
      'u',
      '0',
      '1',
      '-',
      '.',
      'e',
      'a',
      't',
      'true',
      'null',
      '\n',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('{', '['),
        fc.string({ unit, maxLength: 60 }),
        fc.integer({ min: 1, max: 80 }),
        (first, rest, maxLength) => {
          const text = first + rest;
          const cut = cutJson(text, maxLength);
          if (text.length <= maxLength) {
            expect(cut).toBe(parses(text) ? text : undefined);
            return;
          }
          if (cut === undefined) return;
          expect(cut.length).toBeLessThanOrEqual(maxLength);
          expect(parses(cut)).toBe(true);
          expect(text.startsWith(kept(cut))).toBe(true);
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('reads no more than the bound: a 50 MB text costs what a short one does', () => {
    const huge = JSON.stringify({ rows: Array.from({ length: 500_000 }, (_, id) => ({ id, name: `user ${id}` })) });
    // the furthest character read, by index or charCodeAt
    let furthest = 0;
    const read = (index: number) => {
      furthest = Math.max(furthest, index);
    };
    const counting = new Proxy(new String(huge), {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read(Number(key));
        if (key === 'charCodeAt') {
          return (index: number) => {
            read(index);
            return target.charCodeAt(index);
          };
        }
        if (key === 'slice') {
          return (start?: number, end?: number) => {
            read((end ?? target.length) - 1);
            return target.slice(start, end);
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as unknown as string;
    expect(huge.length).toBeGreaterThan(10_000_000);
    const cut = cutJson(counting, 4096) as string;
    expect(parses(cut)).toBe(true);
    expect(cut).toBe(cutJson(huge.slice(0, 5000), 4096));
    expect(furthest).toBeLessThanOrEqual(4096);
  });
});
