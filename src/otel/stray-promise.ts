import { logger } from '../internal/logger.js';

/**
 * For a user function that returned a Promise where a plain value was expected (an `async`
 * errorPolicy, formatError, redact or hook: misuse, the listener cannot wait for it). Its
 * rejection is logged here instead of becoming an unhandled rejection, which ends a Node process.
 * Returns whether `value` was such a Promise. `what` names the function, built only when needed.
 */
export function handleStrayPromise(value: unknown, what: () => string): boolean {
  try {
    // only native Promises report unhandled rejections; another thenable's `then` is not ours to call
    if (!(value instanceof Promise)) return false;
    value.then(undefined, (reason: unknown) => {
      logger.error(`${what()} returned a Promise that rejected (it must not be async)`, reason);
    });
    return true;
  } catch {
    // a Proxy whose getPrototypeOf trap throws, or a subclass whose `then` throws: not a Promise we can settle
    return false;
  }
}
