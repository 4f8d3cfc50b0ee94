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
  return nativeBoundedJson(value, maxLength) ?? walkedBoundedJson(value, maxLength);
}

/** Containers up to this size are left to `JSON.stringify` whole: measuring them costs more. */
const SMALL_CONTAINER = 8;

/**
 * The fast path: the native `JSON.stringify`, kept bounded by a replacer. Room is counted so that
 * it never exceeds the real output length (a string counts its characters and quotes, a number one
 * character, a container its opening bracket, keys and commas nothing): what is written before the room runs out is exactly the
 * start of the full JSON text, and what is cut lies beyond `maxLength`. A long string is sliced to
 * the room left; a larger array or object is cut to the elements that fit, each measured by a
 * nested bounded call, so only those are ever read. Returns `undefined` when `JSON.stringify`
 * throws (circular values, a throwing getter or `toJSON`): the guarded walk handles those.
 */
function nativeBoundedJson(value: unknown, maxLength: number): string | undefined {
  let room = maxLength;
  let full = false;
  const replacer = (key: string, current: unknown): unknown => {
    if (full) return undefined;
    switch (typeof current) {
      case 'string': {
        const before = room;
        room -= current.length + 2;
        if (room >= 0) return current;
        full = true;
        return current.slice(0, before + 1);
      }
      case 'bigint':
        return replacer(key, current.toString());
      case 'number':
        room -= 1;
        break;
      case 'boolean':
        room -= 4;
        break;
      case 'object':
        // a container counts only its opening bracket: the closing one comes after its children
        room -= current === null ? 4 : 1;
        if (current !== null && room >= 0) return fittingPart(current, room);
        break;
    }
    if (room < 0) full = true;
    return current;
  };
  let text: string | undefined;
  try {
    text = JSON.stringify(value, replacer);
  } catch {
    return undefined;
  }
  if (text === undefined) return 'null';
  if (!full && text.length <= maxLength) return text;
  return `${text.slice(0, maxLength - 1)}${ELLIPSIS}`;
}

/**
 * The elements (or own properties) of a container that fill `room`, plus the one that crosses it
 * and one more: that one makes sure the cut falls inside what was written, not on the closing
 * bracket the shortened container would get.
 */
function fittingPart(container: object, room: number): object {
  let left = room;
  const fits = (element: unknown, extra: number) => {
    const text = nativeBoundedJson(element, Math.max(1, left));
    if (text === undefined) throw new TypeError('not serializable natively'); // to the guarded walk
    left -= text.length + extra;
    return left >= 0;
  };
  if (Array.isArray(container)) {
    if (container.length <= SMALL_CONTAINER) return container;
    for (let index = 0; index < container.length; index++) {
      if (!fits(container[index], 1)) return container.slice(0, index + 2);
    }
    return container;
  }
  let count = 0;
  for (const key in container) if (Object.hasOwn(container, key) && ++count > SMALL_CONTAINER) break;
  if (count <= SMALL_CONTAINER) return container;
  const part: Record<string, unknown> = Object.create(null); // a `__proto__` key stays a key
  let crossed = false;
  for (const key in container) {
    if (!Object.hasOwn(container, key)) continue;
    const property = (container as Record<string, unknown>)[key];
    if (property === undefined || typeof property === 'function' || typeof property === 'symbol') continue;
    part[key] = property;
    if (crossed) break;
    crossed = !fits(property, key.length + 4);
  }
  return part;
}

/** The guarded walk: slower, but safe on anything (circular, throwing getters, Proxies). */
function walkedBoundedJson(value: unknown, maxLength: number): string {
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
