/** The mark of a cut: a string cut short ends with it; a container cut short gets it as its last element or member. */
export const CUT = '…';
/** A cut array's last element, and a whole value cut away: `"…"`. */
const CUT_ELEMENT = `"${CUT}"`;
/** A cut object's last member: `"…":"…"`. */
const CUT_MEMBER = `"${CUT}":"${CUT}"`;
/** After a value in an array or object cut short: its last element or member, after a comma. */
const CUT_AFTER_ELEMENT = `,${CUT_ELEMENT}`;
const CUT_AFTER_MEMBER = `,${CUT_MEMBER}`;
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
export function cutJson(whole: string, maxLength: number): string | undefined {
  const fits = whole.length <= maxLength;
  // what is read: nothing past it is looked at, by the scan or by a regular expression
  const text = fits ? whole : whole.slice(0, maxLength + 1);
  const limit = text.length;
  // no closure over these: the loop keeps them in registers
  /** The innermost open container (a list that is never changed: a cut keeps the one it was made in). */
  let open: OpenContainer | undefined;
  /** How many containers are open: the characters that close them. */
  let depth = 0;
  let next = Next.Value;
  // the best cut so far: the text up to `bestEnd`, then `bestMark`, then what closes `bestOpen`; first, none of it
  let bestEnd = maxLength >= MIN_CUT_LENGTH ? 0 : -1;
  let bestMark = CUT_ELEMENT;
  let bestOpen: OpenContainer | undefined;
  let index = 0;
  // a cut's length is at least its end and its closers, a sum that never shrinks as the scan goes on: past
  // the bound, no later cut fits (but a text that fits is read to its end, to know it is JSON)
  while (index < limit && (fits || index + depth <= maxLength)) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      index++;
      continue;
    }
    // where a value ends, when one does here
    let ended = -1;
    if (next === Next.Colon) {
      if (code !== 0x3a) return undefined;
      next = Next.Value;
      index++;
      continue;
    } else if (next === Next.AfterValue) {
      // something after the top-level value, or a closer that does not match
      if (open === undefined) return undefined;
      if (code === 0x2c) {
        next = open.object ? Next.Key : Next.Value;
        index++;
        continue;
      }
      if (code !== (open.object ? 0x7d : 0x5d)) return undefined;
      open = open.outer;
      depth--;
      ended = index + 1;
    } else if (next === Next.KeyOrEnd || next === Next.Key) {
      if (code === 0x7d && next === Next.KeyOrEnd) {
        open = (open as OpenContainer).outer;
        depth--;
        ended = index + 1;
      } else {
        if (code !== 0x22) return undefined;
        const end = scanString(text, index + 1, -1);
        if (end === INVALID) return undefined;
        if (end === RAN_OUT) break;
        index = end;
        next = Next.Colon;
        continue;
      }
    } else if (next === Next.ValueOrEnd && code === 0x5d) {
      open = (open as OpenContainer).outer;
      depth--;
      ended = index + 1;
    } else if (code === 0x7b || code === 0x5b) {
      // a container opens: a cut right inside it is its mark alone
      const object = code === 0x7b;
      open = { object, outer: open };
      depth++;
      index++;
      const mark = object ? CUT_MEMBER : CUT_ELEMENT;
      if (index + mark.length + depth <= maxLength) {
        bestEnd = index;
        bestMark = mark;
        bestOpen = open;
      }
      next = object ? Next.KeyOrEnd : Next.ValueOrEnd;
      continue;
    } else if (code === 0x22) {
      // the last place the string can be cut at and still fit with `…"` and the closers
      ended = scanString(text, index + 1, maxLength - CUT_STRING_END.length - depth);
      if (stringCut >= 0) {
        bestEnd = stringCut;
        bestMark = CUT_STRING_END;
        bestOpen = open;
      }
    } else ended = scanWord(text, index, !fits);
    if (ended === INVALID) return undefined;
    if (ended === RAN_OUT) break;
    // a value ended: a cut after it adds its container's last mark, or nothing at the top
    index = ended;
    next = Next.AfterValue;
    const mark = open === undefined ? '' : open.object ? CUT_AFTER_MEMBER : CUT_AFTER_ELEMENT;
    if (index + mark.length + depth <= maxLength) {
      bestEnd = index;
      bestMark = mark;
      bestOpen = open;
    }
  }
  // all of it read: JSON as it is, or not JSON
  if (fits) return next === Next.AfterValue && open === undefined ? text : undefined;
  if (bestEnd < 0) return undefined;
  let closers = '';
  for (let container = bestOpen; container !== undefined; container = container.outer) {
    closers += container.object ? '}' : ']';
  }
  return `${text.slice(0, bestEnd)}${bestMark}${closers}`;
}

/** An open container, in the list of those open around it. */
interface OpenContainer {
  readonly object: boolean;
  readonly outer: OpenContainer | undefined;
}

/** The last place `scanString` found the string could be cut at within its bound; -1 for none. */
let stringCut = -1;

/** A string's characters past this many are crossed a run at a time. */
const LONG_RUN = 32;
/** Where a run of plain characters stops: a string's end, an escape, what JSON forbids, the first half of a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON forbids in a string
const PLAIN_STOP = /["\\\u0000-\u001f\ud800-\udbff]/g;

/**
 * The index after the closing quote of the string whose text starts at `start`, `INVALID` or
 * `RAN_OUT` (`text` is what is read). Sets `stringCut` to the last place at most `bound` the string
 * can be cut at: before one of its characters (not before the closing quote: the string was not cut
 * there), never inside an escape sequence nor between the halves of a surrogate pair. One tight
 * loop, no call per character: it runs over up to `maxLength` characters of every cut capture.
 */
function scanString(text: string, start: number, bound: number): number {
  let cut = -1;
  // always at the start of a character, an escape sequence or a pair
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      stringCut = cut;
      return index + 1;
    }
    if (code >= 0x20 && code !== 0x5c && (code < 0xd800 || code > 0xdbff)) {
      // a run of plain characters: a place to cut at before each; a long one crossed by the
      // regular-expression engine (keys and short values are quicker a character at a time)
      if (index - start < LONG_RUN) {
        if (index <= bound) cut = index;
        index++;
        continue;
      }
      PLAIN_STOP.lastIndex = index;
      const stop = PLAIN_STOP.exec(text)?.index ?? text.length;
      if (index <= bound) cut = Math.min(stop - 1, bound);
      index = stop;
      continue;
    }
    if (index <= bound) cut = index;
    if (code < 0x20) return INVALID;
    if (code !== 0x5c) {
      // the first half of a pair: the pair is one step (a lone half, one character)
      index += isLowSurrogate(text.charCodeAt(index + 1)) ? 2 : 1;
      continue;
    }
    const escaped = text.charCodeAt(index + 1);
    if (escaped === 0x75) {
      // \uXXXX
      if (index + 6 > text.length) break;
      for (let digit = index + 2; digit < index + 6; digit++) {
        if (!isHexDigit(text.charCodeAt(digit))) return INVALID;
      }
      index += 6;
    } else if (isEscaped(escaped)) index += 2;
    else if (index + 1 === text.length) break;
    else return INVALID;
  }
  stringCut = cut;
  return RAN_OUT;
}

/**
 * The index after a number or literal (`true`, `false`, `null`) starting at `start`. `cut`: the text
 * read is a start of the text (which goes on), so a word that reaches its end may not end there.
 */
function scanWord(text: string, start: number, cut: boolean): number {
  let end = start;
  while (end < text.length && isWordCharacter(text.charCodeAt(end))) end++;
  if (end === text.length && cut) return RAN_OUT;
  const length = end - start;
  if (
    (length === 4 && (text.startsWith('true', start) || text.startsWith('null', start))) ||
    (length === 5 && text.startsWith('false', start))
  ) {
    return end;
  }
  return isNumber(text, start, end) ? end : INVALID;
}

/** `text` from `start` to `end` is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. */
function isNumber(text: string, start: number, end: number): boolean {
  let index = start;
  if (text.charCodeAt(index) === 0x2d) index++;
  if (text.charCodeAt(index) === 0x30) index++;
  else if (isDigit(text.charCodeAt(index))) {
    while (index < end && isDigit(text.charCodeAt(index))) index++;
  } else return false;
  if (index < end && text.charCodeAt(index) === 0x2e) {
    const digits = ++index;
    while (index < end && isDigit(text.charCodeAt(index))) index++;
    if (index === digits) return false;
  }
  if (index < end && (text.charCodeAt(index) | 0x20) === 0x65) {
    index++;
    if (text.charCodeAt(index) === 0x2b || text.charCodeAt(index) === 0x2d) index++;
    const digits = index;
    while (index < end && isDigit(text.charCodeAt(index))) index++;
    if (index === digits) return false;
  }
  return index === end;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** What a number or a literal is made of: `-+.`, digits, letters. */
function isWordCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2e
  );
}

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66) || (code >= 0x41 && code <= 0x46);
}

/** What may follow a backslash: a quote, a backslash, `/`, `b`, `f`, `n`, `r`, `t` (and `u`, taken apart). */
function isEscaped(code: number): boolean {
  return (
    code === 0x22 ||
    code === 0x5c ||
    code === 0x2f ||
    code === 0x62 ||
    code === 0x66 ||
    code === 0x6e ||
    code === 0x72 ||
    code === 0x74
  );
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
