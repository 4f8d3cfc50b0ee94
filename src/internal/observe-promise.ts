import { isPromise } from './is-async-iterable.js';

const promiseThen = Promise.prototype.then;

/**
 * The wrapped result of a tool that returned a Promise or another thenable: it settles as the
 * tool's result does, through `onValue` and `onError` (which see the outcome first).
 *
 * A Promise, or an instance of a Promise subclass, is chained with the native `then`, whose
 * species constructor keeps the class: a tool returning a `TrackedPromise` still returns one.
 * Any other thenable is adopted as `await` adopts it, its own `then` called once, by us: the caller
 * gets a native Promise of the same outcome (calling that `then` again, for the caller, could run a
 * lazy query builder twice).
 */
export function observePromise<Value, Result>(
  result: PromiseLike<Value>,
  onValue: (value: Value) => Result,
  onError: (error: unknown) => Result,
): Promise<Result> {
  if (isPromise(result)) {
    try {
      return promiseThen.call(result, onValue, onError) as Promise<Result>;
    } catch {
      // a subclass whose species constructor throws: no reaction was registered, adopt it instead
    }
  }
  return Promise.resolve(result).then(onValue, onError);
}
