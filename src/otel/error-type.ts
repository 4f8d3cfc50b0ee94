import { boundedAttribute, sliceWellFormed, truncate } from './bounded-text.js';
import { ERROR_TYPE_VALUE_OTHER } from './stable-semconv.js';

/**
 * The `error.type` of a thrown value: its `code` (as a string), else its `name` (its class's name
 * when `name` is only the inherited `Error`), else its constructor's name; `_OTHER` for a value that is not an object, for a plain object without
 * `code`/`name`, and when reading the value throws. Never the message (cardinality, secrets).
 * Bounded by `MAX_ATTRIBUTE_LENGTH`: it is a metric attribute, and a `code` can be anything.
 */
export function errorTypeOf(error: unknown): string {
  return boundedAttribute(unboundedErrorTypeOf(error));
}

function unboundedErrorTypeOf(error: unknown): string {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return ERROR_TYPE_VALUE_OTHER;
  try {
    // a DOMException's `code` is a legacy number (20 for AbortError, 0 for newer names): its name says what happened
    if (error instanceof DOMException && error.name.length > 0) return error.name;
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && code.length > 0) return code;
    if (typeof code === 'number' || typeof code === 'bigint') return String(code);
    const constructorName = Object.getPrototypeOf(error)?.constructor?.name;
    const named = typeof constructorName === 'string' && constructorName.length > 0 && constructorName !== 'Object';
    // a subclass that leaves `name` as `Error` (LangChain's ToolInputParsingException) is told by its class
    if (name === 'Error' && named && constructorName !== 'Error') return constructorName;
    if (typeof name === 'string' && name.length > 0) return name;
    if (named) return constructorName;
  } catch {
    // a Proxy or a throwing getter: nothing safe to say about it
  }
  return ERROR_TYPE_VALUE_OTHER;
}

const MAX_MESSAGE_LENGTH = 1024;
/**
 * How much of a message is looked at. The message is cut to this before stack lines are
 * stripped, so the work is linear in this bound whatever the message (a remote MCP server can
 * send 100,000 newlines); text past it would be cut from the result anyway.
 */
const SCANNED_LENGTH = 4 * MAX_MESSAGE_LENGTH;
/** One line (no `m` flag, no newline inside): anchored at its start, so a test is linear in the line. */
const STACK_LINE = /^\s*at /;

/**
 * A bounded, stack-free message for a thrown value: an error's `message`, or the value itself as
 * text for strings and numbers. Safe on throwing getters and Proxies.
 */
export function errorMessageOf(error: unknown): string {
  let message: string;
  try {
    if (typeof error === 'string') message = error;
    else if (typeof error === 'number' || typeof error === 'boolean' || typeof error === 'bigint') {
      message = String(error);
    } else if (error === undefined || error === null) message = String(error);
    else if (typeof error === 'symbol') message = error.description ?? 'Symbol()';
    else {
      const value = (error as { message?: unknown }).message;
      message = typeof value === 'string' ? value : errorTypeOf(error);
    }
  } catch {
    message = errorTypeOf(error);
  }
  return truncate(withoutStackLines(sliceWellFormed(message, SCANNED_LENGTH)).trim(), MAX_MESSAGE_LENGTH);
}

/**
 * `text` with its `at …` lines blanked, by one split and one anchored test per line: linear. (The
 * multiline `/^\s*at .*$/gm` it replaces is quadratic on many newlines, `\s*` spanning them.)
 */
function withoutStackLines(text: string): string {
  if (!text.includes('at ')) return text;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (STACK_LINE.test(lines[index] as string)) lines[index] = '';
  }
  return lines.join('\n');
}

/** An object with a string `message` and `name`: worth an exception event. */
export function isErrorLike(error: unknown): error is Error {
  try {
    // inside the try: `instanceof` runs a Proxy's getPrototypeOf trap
    if (error instanceof Error) return true;
    return (
      error !== null &&
      typeof error === 'object' &&
      typeof (error as Error).message === 'string' &&
      typeof (error as Error).name === 'string'
    );
  } catch {
    return false;
  }
}
