import { ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';

/**
 * The `error.type` of a thrown value: its `code` (as a string), else its `name`, else its
 * constructor's name; `_OTHER` for a value that is not an object, for a plain object without
 * `code`/`name`, and when reading the value throws. Never the message (cardinality, secrets).
 */
export function errorTypeOf(error: unknown): string {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return ERROR_TYPE_VALUE_OTHER;
  try {
    // a DOMException's `code` is a legacy number (20 for AbortError, 0 for newer names): its name says what happened
    if (error instanceof DOMException && error.name.length > 0) return error.name;
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && code.length > 0) return code;
    if (typeof code === 'number' || typeof code === 'bigint') return String(code);
    if (typeof name === 'string' && name.length > 0) return name;
    const constructorName = Object.getPrototypeOf(error)?.constructor?.name;
    if (typeof constructorName === 'string' && constructorName.length > 0 && constructorName !== 'Object') {
      return constructorName;
    }
  } catch {
    // a Proxy or a throwing getter: nothing safe to say about it
  }
  return ERROR_TYPE_VALUE_OTHER;
}

const MAX_MESSAGE_LENGTH = 1024;
const STACK_LINE = /^\s*at .*$/gm;

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
  message = message.replace(STACK_LINE, '').trim();
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
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
