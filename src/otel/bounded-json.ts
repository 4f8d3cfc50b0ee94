import { sliceWellFormed } from './bounded-text.js';

/** Thrown inside the serializer when the output is full, to unwind at once. */
const FULL = Symbol('full');
const ELLIPSIS = '…';
const MAX_DEPTH = 64;
/** Containers with at most this many primitive members are handed to the native `JSON.stringify`. */
const SMALL_CONTAINER = 16;
const UNREADABLE = '"[Unreadable]"';

/**
 * JSON text of `value`, at most `maxLength` characters (a cut ends with `…`). The work is bounded
 * by the output, not by the input: the walk stops as soon as `maxLength` characters are written,
 * and a long string is sliced before it is escaped, so a 50 MB argument costs about what a 5 KB
 * one does. Small flat containers (a record, a short list of numbers) are serialized by the native
 * `JSON.stringify` in one call, which is what keeps an array of records cheap.
 * Never throws: circular references become `"[Circular]"`, BigInt a decimal string, a throwing
 * getter or `toJSON` `"[Unreadable]"`; otherwise it follows `JSON.stringify` (functions, symbols
 * and `undefined` are left out of objects and are `null` in arrays).
 */
export function boundedJson(value: unknown, maxLength: number): string {
  const out: string[] = [];
  let length = 0;
  let full = false;
  const ancestors: object[] = [];

  const write = (text: string) => {
    const room = maxLength - length;
    if (text.length <= room) {
      out.push(text);
      length += text.length;
      return;
    }
    out.push(text.slice(0, room + 1)); // past the cut: the final slice puts the ellipsis in place
    full = true;
    throw FULL;
  };

  // a string needs at most `room` source characters: escaping only makes it longer
  const writeString = (text: string) => write(JSON.stringify(text.slice(0, maxLength - length + 1)));

  const walk = (input: unknown, depth: number): void => {
    let current = input;
    if (current !== null && typeof current === 'object') {
      // before toJSON: a Buffer's toJSON copies every byte into an array of numbers
      if (isBinary(current)) {
        writeString(binarySummary(current));
        return;
      }
      if (typeof (current as { toJSON?: unknown }).toJSON === 'function') {
        current = (current as { toJSON(): unknown }).toJSON();
        if (current !== null && typeof current === 'object' && isBinary(current)) {
          writeString(binarySummary(current));
          return;
        }
      }
    }
    switch (typeof current) {
      case 'string':
        writeString(current);
        return;
      case 'bigint':
        writeString(current.toString());
        return;
      case 'number':
        write(Number.isFinite(current) ? String(current) : 'null');
        return;
      case 'boolean':
        write(current ? 'true' : 'false');
        return;
      case 'undefined':
      case 'function':
      case 'symbol':
        write('null'); // as JSON.stringify in an array; object properties are skipped before
        return;
    }
    if (current === null) {
      write('null');
      return;
    }
    const object = current as object;
    if (flatSize(object, maxLength - length) >= 0) {
      write(JSON.stringify(object));
      return;
    }
    if (ancestors.includes(object)) {
      writeString('[Circular]');
      return;
    }
    if (depth >= MAX_DEPTH) {
      writeString('[Too deep]');
      return;
    }
    ancestors.push(object);
    if (Array.isArray(object)) {
      write('[');
      let index = 0;
      while (index < object.length) {
        const separator = index > 0 ? ',' : '';
        // a run of small flat elements (records, numbers, short strings) in one native call
        const end = flatRunEnd(object, index, maxLength - length);
        if (end > index) {
          let run: string | undefined;
          try {
            run = JSON.stringify(object.slice(index, end));
          } catch {
            // a getter that throws the second time it is read: the element-by-element walk below
          }
          if (run !== undefined) {
            write(separator + run.slice(1, -1));
            index = end;
            continue;
          }
        }
        write(separator);
        let element: unknown;
        try {
          element = object[index];
        } catch {
          write(UNREADABLE);
          index++;
          continue;
        }
        walkGuarded(element, depth + 1);
        index++;
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
        if (!first) write(',');
        first = false;
        writeString(key);
        write(':');
        walkGuarded(property, depth + 1);
      }
      write('}');
    }
    ancestors.pop();
  };

  const walkGuarded = (input: unknown, depth: number) => {
    const mark = out.length;
    const markLength = length;
    const markDepth = ancestors.length;
    try {
      walk(input, depth);
    } catch (error) {
      if (error === FULL) throw error;
      out.length = mark; // drop what a failing toJSON or getter half-wrote
      length = markLength;
      ancestors.length = markDepth;
      write(UNREADABLE);
    }
  };

  try {
    walkGuarded(value, 0);
  } catch (error) {
    if (error !== FULL) throw error;
  }
  const text = out.join('');
  return full ? `${sliceWellFormed(text, maxLength - 1)}${ELLIPSIS}` : text;
}

/**
 * Typed arrays (a `Buffer` among them), `DataView`s and `ArrayBuffer`s: summarised, never walked.
 * Walking one reads it index by index (a 10 MB `Uint8Array` took seconds and hundreds of MB), and
 * its bytes are rarely worth a span attribute: what they are and how many is.
 */
function isBinary(value: object): value is ArrayBufferView | ArrayBuffer {
  return (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)
  );
}

/** `[Uint8Array 10485760 bytes]`: O(1), whatever the size. */
function binarySummary(value: ArrayBufferView | ArrayBuffer): string {
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  const kind = typeof name === 'string' && name.length > 0 && name.length <= 64 ? name : 'binary data';
  return `[${kind} ${value.byteLength} bytes]`;
}

/**
 * The end of the run of small flat elements from `start` whose text should fill `room`: the run
 * is then serialized in one native call, and its text is bounded by a small multiple of `room`.
 */
function flatRunEnd(array: unknown[], start: number, room: number): number {
  let index = start;
  let size = 0;
  while (index < array.length && size <= room) {
    let element: unknown;
    try {
      element = array[index];
    } catch {
      break;
    }
    const elementSize = flatSize(element, room);
    if (elementSize < 0) break;
    size += elementSize + 1;
    index++;
  }
  return index;
}

/**
 * About the JSON length of a primitive, or of a plain array or object of at most
 * `SMALL_CONTAINER` primitives whose strings fit in `room`; -1 for anything else (nested
 * objects, `toJSON`, BigInt, class instances), which the guarded walk takes. For such a value the
 * native `JSON.stringify` is exact and cannot throw. Reading a member may run a getter: one that
 * throws makes the value not flat.
 */
function flatSize(value: unknown, room: number): number {
  const own = primitiveSize(value, room);
  if (own !== undefined) return own;
  const object = value as object;
  const isArray = Array.isArray(object);
  try {
    if (isArray ? object.length > SMALL_CONTAINER : !isPlainObject(object)) return -1;
    if (typeof (object as { toJSON?: unknown }).toJSON === 'function') return -1;
    let size = 2;
    let members = 0;
    for (const key in object) {
      if (++members > SMALL_CONTAINER) return -1;
      const memberSize = primitiveSize((object as Record<string, unknown>)[key], room);
      if (memberSize === undefined || memberSize < 0) return -1;
      size += memberSize + key.length + 4;
    }
    return size;
  } catch {
    return -1;
  }
}

/** The JSON length of a primitive (-1 for one JSON cannot take), undefined for an object. */
function primitiveSize(value: unknown, room: number): number | undefined {
  switch (typeof value) {
    case 'string':
      return value.length > room ? -1 : value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
    case 'undefined':
    case 'function':
    case 'symbol':
      return 5;
    case 'bigint':
      return -1;
    default:
      return value === null ? 4 : undefined;
  }
}

function isPlainObject(object: object): boolean {
  const prototype = Object.getPrototypeOf(object);
  return prototype === Object.prototype || prototype === null;
}
