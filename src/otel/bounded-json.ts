import { CUT, cutJson, MIN_CUT_LENGTH } from './json-cut.js';

/** Thrown inside the serializer when the output is full, to unwind at once. */
const FULL = Symbol('full');
const MAX_DEPTH = 64;
/** Records with at most this many primitive members are handed to the native `JSON.stringify`. */
const SMALL_CONTAINER = 16;
/** Strings longer than this are escaped by `quote`, not in a native `JSON.stringify` of their record. */
const LONG_STRING = 256;
const UNREADABLE = '"[Unreadable]"';
const UNREADABLE_VALUE = '[Unreadable]';

/**
 * The first members of a plain object, each read once: up to the first that is not a primitive
 * fitting the room (or a `toJSON`), or `SMALL_CONTAINER + 1` of them. When `flat`, they are all
 * its members, and a copy of them is what the native `JSON.stringify` is given.
 */
interface Head {
  /** The members read, by key, in the object's order: what the native call or the walk is given. */
  readonly copy: Record<string, unknown>;
  /** How many members were read. */
  readonly count: number;
  readonly flat: boolean;
  /** About the JSON length of the members, when `flat`. */
  readonly size: number;
  /** The object has an own `toJSON`: it is serialized through it, not member by member. */
  readonly toJSON: boolean;
}

/**
 * JSON text of `value`, at most `maxLength` characters, and valid JSON when `maxLength` is at least
 * `MIN_CUT_LENGTH` (3): a value that does not fit is cut inside, and the cut is marked (a string
 * cut short ends with `…`, an array gets a last element `"…"`, an object a last member `"…":"…"`;
 * json-cut.ts), never in the middle of a surrogate pair; below 3, a cut value is `…`. The work is
 * bounded by the output, not by the input: the walk stops as
 * soon as `maxLength` characters are written, and a long string is sliced before it is escaped, so
 * a 50 MB argument costs about what a 5 KB one does. Small flat records and runs of them (an array
 * of records, a list of numbers) are serialized by the native `JSON.stringify` in one call, which
 * is what keeps an array of records cheap. Binary data (typed arrays, `Buffer`, `DataView`,
 * `ArrayBuffer`) is summarised as `"[Uint8Array 1024 bytes]"`, in O(1).
 *
 * Each member is read once: the native call is given copies of what the walk read, so a getter
 * runs once (and an object's own enumeration, `for…in`, is O(its keys) in V8, whatever one does).
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
  const writeString = (text: string) => write(quote(text.slice(0, maxLength - length + 1)));

  const walk = (input: unknown, depth: number, head?: Head): void => {
    let current = input;
    if (head === undefined && current !== null && typeof current === 'object') {
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
    if (ancestors.includes(object)) {
      writeString('[Circular]');
      return;
    }
    const isArray = Array.isArray(object);
    const members = isArray ? undefined : (head ?? readHead(object, maxLength - length));
    if (members?.flat) {
      write(JSON.stringify(members.copy));
      return;
    }
    if (depth >= MAX_DEPTH) {
      writeString('[Too deep]');
      return;
    }
    ancestors.push(object);
    if (isArray) walkArray(object, depth);
    else walkObject(object, depth, members as Head);
    ancestors.pop();
  };

  const walkObject = (object: object, depth: number, head: Head) => {
    write('{');
    let first = true;
    const member = (key: string, property: unknown) => {
      if (property === undefined || typeof property === 'function' || typeof property === 'symbol') return;
      if (!first) write(',');
      first = false;
      writeString(key);
      write(':');
      walkGuarded(property, depth + 1);
    };
    const { copy } = head;
    for (const key in copy) member(key, copy[key]);
    // the members after the head, read one at a time, so the walk of a huge object stops reading at the cut
    let skip = head.count;
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      member(key, readMember(object, key));
    }
    write('}');
  };

  const walkArray = (array: unknown[], depth: number) => {
    write('[');
    // elements read, flat, and not written yet: written together by one native call
    let run: unknown[] = [];
    let runSize = 0;
    let written = 0;
    const flush = () => {
      if (run.length === 0) return;
      const text = JSON.stringify(run);
      const elements = run.length;
      run = [];
      runSize = 0;
      write((written > 0 ? ',' : '') + text.slice(1, -1));
      written += elements;
    };
    const addToRun = (element: unknown, size: number) => {
      run.push(element);
      runSize += size + 1;
      if (runSize > maxLength - length) flush(); // fills the output: the write unwinds
    };
    const walkElement = (element: unknown, head?: Head) => {
      flush();
      if (written > 0) write(',');
      walkGuarded(element, depth + 1, head);
      written++;
    };
    for (let index = 0; index < array.length; index++) {
      let element: unknown;
      try {
        element = array[index];
      } catch {
        flush();
        write(written > 0 ? `,${UNREADABLE}` : UNREADABLE);
        written++;
        continue;
      }
      const size = primitiveSize(element, maxLength - length);
      if (size !== undefined) {
        if (size >= 0) addToRun(element, size);
        else walkElement(element);
        continue;
      }
      const head = plainRecordHead(element as object, maxLength - length);
      if (head === undefined) walkElement(element);
      else if (head.flat) addToRun(head.copy, head.size);
      else walkElement(element, head);
    }
    flush();
    write(']');
  };

  const walkGuarded = (input: unknown, depth: number, head?: Head) => {
    const mark = out.length;
    const markLength = length;
    const markDepth = ancestors.length;
    try {
      walk(input, depth, head);
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
  if (!full) return text;
  // the first maxLength + 1 characters of the JSON: closed where they are cut (json-cut.ts)
  return cutJson(text, maxLength) ?? (maxLength >= MIN_CUT_LENGTH ? `"${CUT}"` : CUT);
}

/**
 * A string with none of the characters `JSON.stringify` escapes (`"`, `\\`, U+0000–U+001F) and
 * no surrogate (a lone one is escaped; a pair is not, but is rare enough to leave to the native
 * call): its JSON is the string itself in quotes.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const NOTHING_TO_ESCAPE = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** `JSON.stringify(text)`, cheaper for the many strings with nothing to escape (docs/decisions.md). */
export function quote(text: string): string {
  return NOTHING_TO_ESCAPE.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** A member's value, or the unreadable placeholder when its getter throws. */
function readMember(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return UNREADABLE_VALUE;
  }
}

const NOT_A_RECORD: Head = { copy: {}, count: 0, flat: false, size: 0, toJSON: false };

/**
 * The head of an object: its first members, each read once (see `Head`). Anything but a plain
 * object (a class instance, a Map) has an empty head and is walked member by member.
 * May throw (a Proxy's traps): the caller's guard takes it.
 */
function readHead(object: object, room: number): Head {
  return isPlainObject(object) ? readRecordHead(object, room) : NOT_A_RECORD;
}

/** `readHead` of an object known to be plain. */
function readRecordHead(object: object, room: number): Head {
  // a literal, not a null-prototype object: V8 serializes objects of one shape fastest
  const copy: Record<string, unknown> = {};
  let count = 0;
  let size = 2;
  let flat = true;
  let toJSON = false;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (key === 'toJSON') {
      toJSON = true;
      flat = false;
      break;
    }
    if (count === SMALL_CONTAINER) {
      flat = false;
      break;
    }
    const property = readMember(object, key);
    // `copy.__proto__ = …` would set the prototype: an own property, as the original has
    if (key === '__proto__') {
      Object.defineProperty(copy, key, { value: property, enumerable: true, writable: true, configurable: true });
    } else copy[key] = property;
    count++;
    const memberSize = primitiveSize(property, room);
    if (memberSize === undefined || memberSize < 0) {
      flat = false;
      break;
    }
    size += memberSize + key.length + 4;
  }
  return { copy, count, flat, size, toJSON };
}

/**
 * For an array element: the head of a plain record (its members read once, for the run or for
 * its walk), or undefined for anything the walk must take as a whole (binary data, `toJSON`,
 * class instances, arrays, and a record whose own `toJSON` decides).
 */
function plainRecordHead(element: object, room: number): Head | undefined {
  try {
    if (Array.isArray(element) || !isPlainObject(element)) return undefined;
    const head = readRecordHead(element, room);
    return head.toJSON ? undefined : head;
  } catch {
    return undefined; // a Proxy's traps: its walk is guarded
  }
}

/**
 * The JSON length of a primitive, undefined for an object, or -1 for one to be written on its own
 * (not by the native call): one JSON cannot take, one longer than the room, and a long string
 * (`quote` escapes it for less: docs/decisions.md).
 */
function primitiveSize(value: unknown, room: number): number | undefined {
  switch (typeof value) {
    case 'string':
      return value.length > room || value.length > LONG_STRING ? -1 : value.length + 2;
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
