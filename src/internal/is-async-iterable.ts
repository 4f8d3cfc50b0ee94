/** %AsyncGeneratorPrototype%: what every async generator object inherits from. */
export const ASYNC_GENERATOR_PROTOTYPE: object = Object.getPrototypeOf(
  Object.getPrototypeOf((async function* () {})()),
);

/**
 * A result the decorator observes as a stream: an async generator object (what `async function*`
 * returns, the AI SDK's streaming tools among them), and nothing else.
 *
 * Not every async iterable: a Node `Readable`, an SDK list page or any object that merely has
 * `Symbol.asyncIterator` is returned as it is (a plain value: its `pipe`, `on` or `data` must stay
 * there, and its span cannot wait for an iteration that may never come). An async generator has
 * no members of its own to lose, and its body only runs when it is iterated: observing it is
 * observing the tool's work.
 */
export function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, unknown> {
  // the common result (not async iterable at all) pays one property read, as before this check existed
  if (value === null || typeof value !== 'object' || !hasMethod(value, Symbol.asyncIterator)) return false;
  try {
    // a Proxy's getPrototypeOf trap may throw: then it is a plain value
    return Object.prototype.isPrototypeOf.call(ASYNC_GENERATOR_PROTOTYPE, value);
  } catch {
    return false;
  }
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return hasMethod(value, 'then');
}

/** A Promise of this realm, or an instance of a subclass: its native `then` keeps the subclass. */
export function isPromise(value: unknown): value is Promise<unknown> {
  try {
    return value instanceof Promise;
  } catch {
    return false;
  }
}

// A result whose property read throws (a hostile Proxy, a throwing getter) is a plain value: the
// decorator must not fail a call that would succeed unwrapped, nor leave its invocation open.
function hasMethod(value: unknown, key: PropertyKey): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return typeof (value as Record<PropertyKey, unknown>)[key] === 'function';
  } catch {
    return false;
  }
}
