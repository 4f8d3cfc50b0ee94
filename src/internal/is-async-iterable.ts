/** A value the decorator treats as a streaming result (and not as a Promise). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return hasMethod(value, Symbol.asyncIterator);
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return hasMethod(value, 'then');
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
