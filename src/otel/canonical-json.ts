import { quote } from './bounded-json.js';

/** Thrown inside the walk when the text is full, to unwind at once. */
const FULL = Symbol('full');
const MAX_DEPTH = 64;

/**
 * The arguments of a call as a key to compare calls by: JSON with every object's keys sorted (two
 * calls whose arguments differ only in key order give the same text), at most `maxLength`
 * characters: arguments that differ only beyond that are the same key. The work is bounded by
 * `maxLength` whatever the input's size (a long string is sliced before it is escaped). Never
 * throws: a cycle is `"[Circular]"`, a throwing getter or `toJSON` `"[Unreadable]"`, a BigInt its
 * decimal text, binary data its length.
 */
export function canonicalJson(value: unknown, maxLength: number): string {
  const flat = flatRecordJson(value);
  if (flat !== undefined) return flat.length <= maxLength ? flat : flat.slice(0, maxLength);
  let text = '';
  const ancestors: object[] = [];

  const write = (part: string) => {
    if (text.length + part.length <= maxLength) {
      text += part;
      return;
    }
    text += part.slice(0, maxLength - text.length);
    throw FULL;
  };

  const walk = (input: unknown, depth: number): void => {
    let current: unknown;
    try {
      current =
        input !== null && typeof input === 'object' && typeof (input as { toJSON?: unknown }).toJSON === 'function'
          ? (input as { toJSON(): unknown }).toJSON()
          : input;
    } catch {
      write('"[Unreadable]"');
      return;
    }
    switch (typeof current) {
      case 'string':
        // escaping only makes it longer: the room left is all of it that can be written
        write(quote(current.slice(0, maxLength - text.length + 1)));
        return;
      case 'number':
        write(Number.isFinite(current) ? String(current) : 'null');
        return;
      case 'boolean':
        write(current ? 'true' : 'false');
        return;
      case 'bigint':
        write(`"${current}"`);
        return;
      case 'object':
        break;
      default:
        // undefined, a function, a symbol: as JSON.stringify writes them in an array
        write('null');
        return;
    }
    if (current === null) {
      write('null');
      return;
    }
    if (ArrayBuffer.isView(current) || current instanceof ArrayBuffer) {
      write(`"[binary ${current.byteLength} bytes]"`);
      return;
    }
    if (depth >= MAX_DEPTH || ancestors.includes(current)) {
      write('"[Circular]"');
      return;
    }
    ancestors.push(current);
    if (Array.isArray(current)) {
      write('[');
      for (let index = 0; index < current.length; index++) {
        if (index > 0) write(',');
        walk(readMember(current, index), depth + 1);
      }
      write(']');
    } else {
      const keys = Object.keys(current);
      // more keys than characters to write them in: their count stands for them (sorting a million
      // keys would cost what the bound is there to avoid)
      if (keys.length > maxLength) {
        write(`"[object with ${keys.length} keys]"`);
        ancestors.pop();
        return;
      }
      write('{');
      let first = true;
      for (const key of keys.sort()) {
        const member = readMember(current, key);
        // left out of an object, as JSON.stringify leaves them
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        write(first ? quote(key) : `,${quote(key)}`);
        write(':');
        first = false;
        walk(member, depth + 1);
      }
      write('}');
    }
    ancestors.pop();
  };

  try {
    walk(value, 0);
  } catch {
    // FULL, or a proxy whose keys cannot be listed: what was written is the key
  }
  return text;
}

/** A record this small, of primitives only, is written by the native serializer in one call. */
const SMALL_RECORD = 16;
/** A longer string is sliced to the room left before it is escaped (the walk): the bound holds. */
const LONG_STRING = 256;

/**
 * The usual arguments (a plain record of a few strings, numbers and booleans), written directly,
 * keys sorted; undefined for any other value (the walk writes those). Each member is read once.
 */
function flatRecordJson(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const keys = Object.keys(value);
  if (keys.length > SMALL_RECORD) return undefined;
  keys.sort();
  let text = '{';
  for (const key of keys) {
    const member = readMember(value, key);
    let written: string;
    switch (typeof member) {
      case 'string':
        if (member.length > LONG_STRING) return undefined;
        written = quote(member);
        break;
      case 'number':
        written = Number.isFinite(member) ? String(member) : 'null';
        break;
      case 'boolean':
        written = member ? 'true' : 'false';
        break;
      case 'undefined':
        continue; // left out, as JSON.stringify leaves it
      default:
        if (member !== null) return undefined;
        written = 'null';
    }
    text += `${text.length === 1 ? '' : ','}${quote(key)}:${written}`;
  }
  return `${text}}`;
}

/** A member read once; a getter that throws gives a marker in its place. */
function readMember(container: object, key: string | number): unknown {
  try {
    return (container as Record<string | number, unknown>)[key];
  } catch {
    return '[Unreadable]';
  }
}
