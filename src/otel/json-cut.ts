/** The mark of a cut: a string cut short ends with it; a container cut short gets it as its last element or member. */
export const CUT = '…';
/** A cut array's last element, and a whole value cut away: `"…"`. */
const CUT_ELEMENT = `"${CUT}"`;
/** A cut object's last member: `"…":"…"`. */
const CUT_MEMBER = `"${CUT}":"${CUT}"`;
/** A string cut short: its text ends with the mark. */
const CUT_STRING_END = `${CUT}"`;
/** The shortest JSON that stands for a cut value (`"…"`): a bound below it leaves room for no JSON. */
export const MIN_CUT_LENGTH = CUT_ELEMENT.length;

/** What the scanner expects next. */
enum Next {
  /** A value (at the start, after `:`, after `,` in an array). */
  Value,
  /** A value or `]`: right after `[`. */
  ValueOrEnd,
  /** A key or `}`: right after `{`. */
  KeyOrEnd,
  /** A key: after `,` in an object. */
  Key,
  /** `:` after a key. */
  Colon,
  /** `,` or the container's end after a value; only spaces after the top-level value. */
  AfterValue,
}

/** A scan that met what JSON does not allow. */
const INVALID = -1;
/** A scan that reached the end of what is read before the string or word ended. */
const RAN_OUT = -2;

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * The longest valid JSON text of at most `maxLength` characters that is `text` itself, or a start of
 * it closed where it was cut: a string cut short ends with `…` (`"abc…"`), an array cut short gets a
 * last element `"…"`, an object a last member `"…":"…"`, and every container left open is closed; a
 * value with no room at all is `"…"`. Never cuts an escape sequence or a surrogate pair in half.
 *
 * Reads at most `maxLength + 1` characters of `text`, whatever its length: the cost is bounded by
 * the bound. Undefined when what is read is not the start of a JSON text (or, for a text that fits,
 * not a JSON text), and when `maxLength` is below `MIN_CUT_LENGTH` and the text does not fit.
 */
export function cutJson(text: string, maxLength: number): string | undefined {
  const limit = Math.min(text.length, maxLength + 1);
  /** The closing characters of the open containers, the innermost first. */
  let closers = '';
  let next = Next.Value;
  // the best cut so far: the text up to `bestEnd`, then `bestMark`, then `bestClosers`
  let bestEnd = -1;
  let bestMark = '';
  let bestClosers = '';

  /** A cut at `end` (the text before it kept), closed by `mark` and the open containers: kept if it fits. */
  const cutAt = (end: number, mark: string) => {
    if (end + mark.length + closers.length > maxLength) return;
    bestEnd = end;
    bestMark = mark;
    bestClosers = closers;
  };
  const cutInString = (end: number) => cutAt(end, CUT_STRING_END);
  /** A value ended just before `end`: a cut there adds the container's last mark, or nothing at the top. */
  const valueEnded = (end: number): Next => {
    if (closers.length === 0) cutAt(end, '');
    else cutAt(end, closers[0] === '}' ? `,${CUT_MEMBER}` : `,${CUT_ELEMENT}`);
    return Next.AfterValue;
  };
  /** The innermost container ended just before `end`. */
  const close = (end: number): Next => {
    closers = closers.slice(1);
    return valueEnded(end);
  };

  cutAt(0, CUT_ELEMENT);
  let index = 0;
  while (index < limit) {
    const char = text[index] as string;
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') {
      index++;
      continue;
    }
    if (next === Next.Colon) {
      if (char !== ':') return undefined;
      next = Next.Value;
      index++;
      continue;
    }
    if (next === Next.AfterValue) {
      // something after the top-level value, or a closer that does not match
      if (closers.length === 0) return undefined;
      if (char === ',') next = closers[0] === '}' ? Next.Key : Next.Value;
      else if (char === closers[0]) next = close(index + 1);
      else return undefined;
      index++;
      continue;
    }
    if (next === Next.KeyOrEnd || next === Next.Key) {
      if (char === '}' && next === Next.KeyOrEnd) {
        next = close(++index);
        continue;
      }
      if (char !== '"') return undefined;
      const end = scanString(text, index + 1, limit, undefined);
      if (end === INVALID) return undefined;
      if (end === RAN_OUT) break;
      index = end;
      next = Next.Colon;
      continue;
    }
    if (next === Next.ValueOrEnd && char === ']') {
      next = close(++index);
      continue;
    }
    // a value
    if (char === '{' || char === '[') {
      closers = (char === '{' ? '}' : ']') + closers;
      index++;
      cutAt(index, char === '{' ? CUT_MEMBER : CUT_ELEMENT);
      next = char === '{' ? Next.KeyOrEnd : Next.ValueOrEnd;
      continue;
    }
    const end =
      char === '"' ? scanString(text, index + 1, limit, cutInString) : scanWord(text, index, limit, limit > maxLength);
    if (end === INVALID) return undefined;
    if (end === RAN_OUT) break;
    index = end;
    next = valueEnded(index);
  }
  // all of it read: JSON as it is, or not JSON
  if (text.length <= maxLength) return next === Next.AfterValue && closers.length === 0 ? text : undefined;
  return bestEnd < 0 ? undefined : `${text.slice(0, bestEnd)}${bestMark}${bestClosers}`;
}

/**
 * The index after the closing quote of the string whose text starts at `start`, `INVALID` or
 * `RAN_OUT`; `onBoundary` is told each place the string can be cut at: before each of its characters
 * (not before the closing quote: the string was not cut there), never inside an escape sequence nor
 * between the halves of a surrogate pair.
 */
function scanString(
  text: string,
  start: number,
  limit: number,
  onBoundary: ((end: number) => void) | undefined,
): number {
  let index = start;
  while (index < limit) {
    const code = text.charCodeAt(index);
    if (code === 0x22) return index + 1;
    // a cut before this character keeps the string's text before it (never after the first half of a pair)
    if (onBoundary !== undefined && !isHighSurrogate(text.charCodeAt(index - 1))) onBoundary(index);
    if (code < 0x20) return INVALID;
    if (code !== 0x5c) {
      index++;
      continue;
    }
    const escaped = text[index + 1];
    if (escaped === undefined || index + 1 >= limit) return RAN_OUT;
    if (escaped === 'u') {
      if (index + 6 > limit) return RAN_OUT;
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) return INVALID;
      index += 6;
    } else if ('"\\/bfnrt'.includes(escaped)) index += 2;
    else return INVALID;
  }
  return RAN_OUT;
}

/**
 * The index after a number or literal (`true`, `false`, `null`) starting at `start`. `cut`: the text
 * read stops at `limit` (the text may go on, or was cut there), so a word that reaches it may not end.
 */
function scanWord(text: string, start: number, limit: number, cut: boolean): number {
  let end = start;
  while (end < limit && /[-+.0-9a-zA-Z]/.test(text[end] as string)) end++;
  if (end === limit && cut) return RAN_OUT;
  const word = text.slice(start, end);
  return word === 'true' || word === 'false' || word === 'null' || NUMBER.test(word) ? end : INVALID;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
