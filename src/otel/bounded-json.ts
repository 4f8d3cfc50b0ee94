/** Thrown inside the serializer when the output is full, to unwind at once. */
const FULL = Symbol('full');
const ELLIPSIS = '…';
const MAX_DEPTH = 64;

/**
 * JSON text of `value`, at most `maxLength` characters (a cut ends with `…`). The work is bounded
 * by the output, not by the input: the walk stops as soon as `maxLength` characters are written, a
 * long string is sliced before it is escaped, so a 50 MB argument costs about what a 5 KB one does.
 * Never throws: circular references become `"[Circular]"`, BigInt a decimal string, a throwing
 * getter or `toJSON` `"[Unreadable]"`; otherwise it follows `JSON.stringify` (functions, symbols
 * and `undefined` are left out of objects and are `null` in arrays).
 */
export function boundedJson(value: unknown, maxLength: number): string {
  const out: string[] = [];
  let length = 0;
  const seen = new Set<object>();

  const write = (text: string) => {
    const room = maxLength - length;
    if (text.length <= room) {
      out.push(text);
      length += text.length;
      return;
    }
    out.push(text.slice(0, Math.max(0, room - 1)), ELLIPSIS);
    length = maxLength;
    throw FULL;
  };

  // a string needs at most `room` source characters: escaping only makes it longer
  const writeString = (text: string) => write(JSON.stringify(text.slice(0, maxLength - length + 1)));

  const walk = (input: unknown, depth: number): void => {
    let current = input;
    if (
      current !== null &&
      typeof current === 'object' &&
      typeof (current as { toJSON?: unknown }).toJSON === 'function'
    ) {
      current = (current as { toJSON(): unknown }).toJSON();
    }
    const scalar = scalarJson(current);
    if (scalar !== undefined) {
      if (typeof current === 'string' || typeof current === 'bigint') writeString(scalar);
      else write(scalar);
      return;
    }
    const object = current as object;
    if (seen.has(object) || depth >= MAX_DEPTH) {
      writeString(seen.has(object) ? '[Circular]' : '[Too deep]');
      return;
    }
    seen.add(object);
    if (Array.isArray(object)) {
      write('[');
      for (let index = 0; index < object.length; index++) {
        if (index > 0) write(',');
        walkGuarded(() => object[index], depth + 1);
      }
      write(']');
    } else {
      write('{');
      let first = true;
      // values are read one at a time, so the walk of a huge object stops reading at the cut
      for (const key in object) {
        if (!Object.hasOwn(object, key)) continue;
        let property: unknown;
        try {
          property = (object as Record<string, unknown>)[key];
        } catch {
          property = '[Unreadable]';
        }
        if (property === undefined || typeof property === 'function' || typeof property === 'symbol') continue;
        write(first ? '' : ',');
        first = false;
        writeString(key);
        write(':');
        walkGuarded(() => property, depth + 1);
      }
      write('}');
    }
    seen.delete(object);
  };

  const walkGuarded = (read: () => unknown, depth: number) => {
    const mark = out.length;
    const markLength = length;
    try {
      walk(read(), depth);
    } catch (error) {
      if (error === FULL) throw error;
      out.length = mark; // drop what a failing toJSON or getter half-wrote
      length = markLength;
      writeString('[Unreadable]');
    }
  };

  try {
    walkGuarded(() => value, 0);
  } catch (error) {
    if (error !== FULL) throw error;
  }
  return out.join('');
}

/** The text of a non-object value (a string's raw text, to be escaped by the caller). */
function scalarJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return 'null'; // as JSON.stringify in an array; object properties are skipped before
    default:
      return value === null ? 'null' : undefined;
  }
}
