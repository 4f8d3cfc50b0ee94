/**
 * The characters of a result (of its strings, and one per value or member of the rest) read
 * exactly; beyond, the rest is estimated from what was read, so that a 50 MB result costs about
 * what a 1 MB one does.
 */
export const EXACT_RESULT_SIZE = 1_048_576;
/** A string estimated is read in this many evenly spread chunks... */
const SAMPLE_CHUNKS = 64;
/** ...of this many characters each (64 KiB in all). */
const SAMPLE_CHUNK_LENGTH = 1024;
const MAX_DEPTH = 64;
const NON_ASCII = /[^\x20-\x7e]/;

/**
 * The size in bytes of a result as the model reads it: a string's UTF-8 length, binary data its
 * byte length, anything else the UTF-8 length of its JSON (as `JSON.stringify` writes it; a cycle
 * counts as `"[Circular]"`, a value JSON cannot write as `null`). Exact while the result is within
 * `EXACT_RESULT_SIZE` characters; beyond, a long string is measured on evenly spread samples and the
 * members of a long array or object not read are counted at the average of those read. Never throws.
 */
export function resultSize(result: unknown): number {
  switch (typeof result) {
    case 'string':
      return result.length <= EXACT_RESULT_SIZE ? utf8Length(result, false) : sampledLength(result, false);
    case 'number':
      return Number.isFinite(result) ? String(result).length : 4;
    case 'boolean':
      return result ? 4 : 5;
    case 'undefined':
      return 0;
    default:
      return jsonSize(result);
  }
}

/** The UTF-8 length of the JSON of a value that is not a string: a walk within `EXACT_RESULT_SIZE`. */
function jsonSize(result: unknown): number {
  let budget = EXACT_RESULT_SIZE;
  const ancestors: object[] = [];

  const measure = (input: unknown, depth: number): number => {
    budget--;
    let value = input;
    if (value !== null && typeof value === 'object') {
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
        value = (value as { toJSON(): unknown }).toJSON();
    }
    switch (typeof value) {
      case 'string':
        return stringSize(value);
      case 'number':
        return Number.isFinite(value) ? String(value).length : 4;
      case 'boolean':
        return value ? 4 : 5;
      case 'bigint':
        return String(value).length;
      case 'object':
        break;
      default:
        return 4; // null: what JSON.stringify writes for it in an array
    }
    if (value === null) return 4;
    if (depth >= MAX_DEPTH || ancestors.includes(value)) return 12; // "[Circular]"
    ancestors.push(value);
    const size = Array.isArray(value) ? arraySize(value, depth) : objectSize(value as Record<string, unknown>, depth);
    ancestors.pop();
    return size;
  };

  const stringSize = (text: string): number => {
    if (text.length <= budget) {
      budget -= text.length;
      return utf8Length(text, true) + 2;
    }
    budget = 0;
    return sampledLength(text, true) + 2;
  };

  const arraySize = (array: readonly unknown[], depth: number): number => {
    let size = 2; // the brackets
    for (let index = 0; index < array.length; index++) {
      if (budget <= 0 && index > 0) return size + Math.round(((size - 2) / index) * (array.length - index));
      size += (index > 0 ? 1 : 0) + measure(array[index], depth + 1);
    }
    return size;
  };

  const objectSize = (object: Record<string, unknown>, depth: number): number => {
    const keys = Object.keys(object);
    let size = 2;
    let written = 0;
    for (let index = 0; index < keys.length; index++) {
      if (budget <= 0 && index > 0) return size + Math.round(((size - 2) / index) * (keys.length - index));
      const key = keys[index] as string;
      const member = object[key];
      // left out of the JSON, as JSON.stringify leaves them
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      size += (written > 0 ? 1 : 0) + stringSize(key) + 1 + measure(member, depth + 1);
      written++;
    }
    return size;
  };

  try {
    return measure(result, 0);
  } catch {
    // a getter or toJSON that throws: no size to give
    return Number.NaN;
  }
}

/**
 * The UTF-8 length of `text`, or of its JSON string body when `json` (escapes counted: `\"`, `\\`,
 * `\n`..., `\u00XX` for other controls, `\udXXX` for a lone surrogate; outside JSON a lone surrogate
 * is written as U+FFFD, 3 bytes).
 */
function utf8Length(text: string, json: boolean): number {
  // printable ASCII needs no counting (one regular expression scan, native)
  if (!NON_ASCII.test(text)) return json ? text.length + countEscaped(text) : text.length;
  return utf8LengthOf(text, 0, text.length, json);
}

/** `"` and `\` in printable ASCII: one more byte each in JSON. */
function countEscaped(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count++;
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', at + 1)) count++;
  return count;
}

function utf8LengthOf(text: string, from: number, to: number, json: boolean): number {
  let bytes = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) {
      if (!json) bytes += 1;
      else if (code === 0x22 || code === 0x5c) bytes += 2;
      else if (code >= 0x20) bytes += 1;
      else bytes += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
    } else if (code < 0x800) {
      bytes += 2;
    } else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      bytes += json ? 6 : 3;
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The UTF-8 length of a long string, from `SAMPLE_CHUNKS` chunks spread evenly over it. */
function sampledLength(text: string, json: boolean): number {
  const stride = Math.floor(text.length / SAMPLE_CHUNKS);
  let bytes = 0;
  let read = 0;
  for (let chunk = 0; chunk < SAMPLE_CHUNKS; chunk++) {
    const from = chunk * stride;
    const to = Math.min(text.length, from + SAMPLE_CHUNK_LENGTH);
    bytes += utf8LengthOf(text, from, to, json);
    read += to - from;
  }
  return Math.round((bytes / read) * text.length);
}
