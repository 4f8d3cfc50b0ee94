import type { Invocation } from './invocation.js';
import { isPromise } from './is-async-iterable.js';

const promiseThen = Promise.prototype.then;

/**
 * The wrapped result of a tool that returned a Promise or another thenable: it settles as the
 * tool's result does (or with the report text), after the listener has seen the outcome.
 *
 * A Promise, or an instance of a Promise subclass, is chained with the native `then`, whose
 * species constructor keeps the class: a tool returning a `TrackedPromise` still returns one.
 * Any other thenable is adopted as `await` adopts it, its own `then` called once, by us: the caller
 * gets a native Promise of the same outcome (calling that `then` again, for the caller, could run a
 * lazy query builder twice).
 */
export function observePromise<Context>(result: PromiseLike<unknown>, invocation: Invocation<Context>): unknown {
  const succeed = (value: unknown) => invocation.succeed(value);
  const fail = (error: unknown) => invocation.fail(error);
  if (isPromise(result)) {
    try {
      return promiseThen.call(result, succeed, fail);
    } catch {
      // a subclass whose species constructor throws: no reaction was registered, adopt it instead
    }
  }
  return Promise.resolve(result).then(succeed, fail);
}
