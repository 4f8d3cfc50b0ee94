import { isPromise, isPromiseLike } from './is-async-iterable.js';

const promiseThen = Promise.prototype.then;
const ignore = () => {};

/**
 * The wrapped result of a tool that returned a Promise or another thenable: it settles as the
 * tool's result does, through `onValue` and `onError` (which see the outcome first, and give what
 * the caller gets: the value, or the report text). The caller gets what the result's own `then`
 * gives, so its class is kept:
 *
 * - a Promise, or an instance of a Promise subclass, is chained with the native `then`, whose
 *   species constructor keeps the subclass (a tool returning a `TrackedPromise` returns one);
 * - any other thenable (a Bluebird promise, a lazy query builder) is chained through its own
 *   `then`, called once, by the decorator: the caller gets what it returns (calling it a second
 *   time for the caller could run a lazy query twice). When that is nothing awaitable, the caller
 *   gets a native Promise of the outcome instead.
 */
export function observePromise<Value, Result>(
  result: PromiseLike<Value>,
  onValue: ((value: Value) => Result) | undefined,
  onError: (error: unknown) => Result,
): Promise<Result | Value> {
  if (isPromise(result)) {
    try {
      return promiseThen.call(result, onValue as ((value: unknown) => Result) | undefined, onError) as Promise<Result>;
    } catch {
      // a subclass whose species constructor throws: no reaction was registered, adopt it instead
      return Promise.resolve(result as PromiseLike<Value>).then(onValue, onError);
    }
  }
  return observeThenable<Value, Result | Value>(result, onValue ?? keep, onError);
}

/** No `onValue` (only a failure is observed): the value is what the caller gets; a Promise's `then` does that natively. */
const keep = <Value>(value: Value): Value => value;

/**
 * A thenable that is not a Promise may break the rules a Promise keeps: call both callbacks, one
 * twice, synchronously, or throw from `then`. The listener sees the first settlement only, as a
 * Promise would, and a `then` that throws before settling is a rejection, as `await` makes it.
 */
function observeThenable<Value, Result>(
  thenable: PromiseLike<Value>,
  onValue: (value: Value) => Result,
  onError: (error: unknown) => Result,
): Promise<Result> {
  let settled = false;
  let resolveOutcome: (value: Result) => void = ignore;
  let rejectOutcome: (error: unknown) => void = ignore;
  // the outcome as a native Promise: what the caller gets when `then` returns nothing awaitable
  const outcome = new Promise<Result>((resolve, reject) => {
    resolveOutcome = resolve;
    rejectOutcome = reject;
  });
  outcome.catch(ignore); // awaited only in that case: otherwise its rejection must not be unhandled

  const settle = (end: () => Result): Result => {
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
  const onFulfilled = (value: Value) => (settled ? value : settle(() => onValue(value)));
  const onRejected = (error: unknown) => {
    if (settled) throw error;
    return settle(() => onError(error));
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
        settle(() => onError(error));
      } catch {
        // the rejection is in `outcome`
      }
    }
    return outcome;
  }
  return (isPromiseLike(chained) ? chained : outcome) as Promise<Result>;
}
