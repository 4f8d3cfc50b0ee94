import { logger } from '../internal/logger.js';
import { handleStrayPromise } from './stray-promise.js';

/** What `runUserHook` returns for a user function that threw. */
export const HOOK_THREW: unique symbol = Symbol('the hook threw');
/** What `runUserHook` returns for a user function that returned a Promise where a value was expected. */
export const HOOK_WENT_ASYNC: unique symbol = Symbol('the hook returned a Promise');

/**
 * The one guard every user function of the listener runs through (`errorPolicy`, `formatError`,
 * `redact`, `onSpanStart`, `onSpanEnd`): the shipped listener never throws. A throw is logged
 * (`threw()`, the line, built only then); a Promise (an `async` hook: misuse, the listener cannot
 * wait) has its rejection logged instead of ending the host (stray-promise.ts). The caller decides
 * what stands in for the value.
 */
export function runUserHook<T>(
  hook: () => string,
  threw: () => string,
  run: () => T,
): T | typeof HOOK_THREW | typeof HOOK_WENT_ASYNC {
  let value: T;
  try {
    value = run();
  } catch (error) {
    logger.error(threw(), error);
    return HOOK_THREW;
  }
  return value !== undefined && handleStrayPromise(value, hook) ? HOOK_WENT_ASYNC : value;
}
