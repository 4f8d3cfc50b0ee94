import type { Invocation } from './invocation.js';
import { isPromise, isPromiseLike } from './is-async-iterable.js';

const promiseThen = Promise.prototype.then;
const ignore = () => {};

/**
 * The wrapped result of a tool that returned a Promise or another thenable: it settles as the
 * tool's result does (or with the report text), after the listener has seen the outcome. The
 * caller gets what the result's own `then` gives, so its class is kept:
 *
 * - a Promise, or an instance of a Promise subclass, is chained with the native `then`, whose
 *   species constructor keeps the subclass (a tool returning a `TrackedPromise` returns one);
 * - any other thenable (a Bluebird promise, a lazy query builder) is chained through its own
 *   `then`, called once, by the decorator: the caller gets what it returns (calling it a second
 *   time for the caller could run a lazy query twice). When that is nothing awaitable, the caller
 *   gets a native Promise of the outcome instead.
 */
export function observePromise<Context>(result: PromiseLike<unknown>, invocation: Invocation<Context>): unknown {
  if (isPromise(result)) {
    const succeed = (value: unknown) => invocation.succeed(value);
    const fail = (error: unknown) => invocation.fail(error);
    try {
      return promiseThen.call(result, succeed, fail);
    } catch {
      // a subclass whose species constructor throws: no reaction was registered, adopt it instead
      return Promise.resolve(result).then(succeed, fail);
    }
  }
  return observeThenable(result, invocation);
}

/**
 * A thenable that is not a Promise may break the rules a Promise keeps: call both callbacks, one
 * twice, synchronously, or throw from `then`. The listener sees the first settlement only, as a
 * Promise would, and a `then` that throws before settling is a rejection, as `await` makes it.
 */
function observeThenable<Context>(thenable: PromiseLike<unknown>, invocation: Invocation<Context>): unknown {
  let settled = false;
  let resolveOutcome: (value: unknown) => void = ignore;
  let rejectOutcome: (error: unknown) => void = ignore;
  // the outcome as a native Promise: what the caller gets when `then` returns nothing awaitable
  const outcome = new Promise<unknown>((resolve, reject) => {
    resolveOutcome = resolve;
    rejectOutcome = reject;
  });
  outcome.catch(ignore); // awaited only in that case: otherwise its rejection must not be unhandled

  const settle = (end: () => unknown): unknown => {
    settled = true;
    try {
      const value = end();
      resolveOutcome(value);
      return value;
    } catch (error) {
      rejectOutcome(error);
      throw error;
    }
  };
  const onFulfilled = (value: unknown) => (settled ? value : settle(() => invocation.succeed(value)));
  const onRejected = (error: unknown) => {
    if (settled) throw error;
    return settle(() => invocation.fail(error));
  };

  let chained: unknown;
  try {
    chained = (thenable.then as (this: unknown, ...callbacks: unknown[]) => unknown).call(
      thenable,
      onFulfilled,
      onRejected,
    );
  } catch (error) {
    if (!settled) {
      try {
        settle(() => invocation.fail(error));
      } catch {
        // the rejection is in `outcome`
      }
    }
    return outcome;
  }
  return isPromiseLike(chained) ? chained : outcome;
}
