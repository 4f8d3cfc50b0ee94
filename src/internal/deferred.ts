/**
 * A promise settled from outside, what `Promise.withResolvers` gives (not on Node 20): the outcome of
 * a call that a later event brings (a hook after the tool ran, the app's answer to a return of
 * control, a task's result), handed to `observeCall` as the call's `run`.
 */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T | PromiseLike<T>): void;
  reject(reason: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((onValue, onError) => {
    resolve = onValue;
    reject = onError;
  });
  return { promise, resolve, reject };
}
