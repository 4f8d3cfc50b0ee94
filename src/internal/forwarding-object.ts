/**
 * An object that stands for `original` with a few properties replaced: how an adapter hands a
 * framework a tool (or options, or request params) whose one function is observed, without copying
 * the user's object (design.md §4, "observe in place").
 *
 * A copy is not the original: `{ ...tool }` keeps own enumerable properties only, and
 * `Object.create(prototype, descriptors)` keeps the prototype but not `#private` fields (a method or
 * getter that reads one throws on the copy), nor state the original changes later, nor identity.
 * Here every read that is not replaced is made on the original itself, with the original as the
 * receiver: a prototype getter, a getter over a `#private` field and a property the original gains
 * later all read as on the original. Writes, definitions and deletions go to the original too, so
 * state set through the stand-in is the original's. `instanceof` and `Object.getPrototypeOf` see the
 * original's prototype; keys, descriptors and enumeration are the original's plus the replaced keys
 * (each enumerable as the original's property of that name, own or inherited, is).
 *
 * A method the framework calls on the stand-in runs with the stand-in as `this` (its reads still
 * reach the original; a method that reads a `#private` field of `this` throws, as a method called on
 * any other object would). That is why an adapter replaces the very function the framework calls,
 * and runs the original function with the original object as `this`.
 *
 * The Proxy's own target is an empty object, not the original: its invariants are checked against
 * that object, so a frozen original (whose replaced property is non-configurable and read-only) can
 * still be stood in for. The stand-in reports every property as configurable, and is extensible.
 */
export function forwardingObject<T extends object>(original: T, replaced: ReadonlyMap<string | symbol, unknown>): T {
  const overrides = new Map(replaced);
  const shadow = Object.create(null) as object;
  const handler: ProxyHandler<object> = {
    get: (_shadow, key) => (overrides.has(key) ? overrides.get(key) : Reflect.get(original, key, original)),
    set(_shadow, key, value) {
      if (!overrides.has(key)) return Reflect.set(original, key, value, original);
      overrides.set(key, value);
      return true;
    },
    has: (_shadow, key) => overrides.has(key) || Reflect.has(original, key),
    ownKeys() {
      const keys = Reflect.ownKeys(original);
      for (const key of overrides.keys()) if (!keys.includes(key)) keys.push(key);
      return keys;
    },
    getOwnPropertyDescriptor(_shadow, key) {
      const own = Reflect.getOwnPropertyDescriptor(original, key);
      if (overrides.has(key)) {
        return {
          value: overrides.get(key),
          writable: true,
          enumerable: enumerableOn(original, key),
          configurable: true,
        };
      }
      // reported configurable: the shadow has no such property, and the Proxy may not say otherwise
      return own === undefined ? undefined : { ...own, configurable: true };
    },
    defineProperty(_shadow, key, descriptor) {
      if (!overrides.has(key)) return Reflect.defineProperty(original, key, descriptor);
      if (!('value' in descriptor)) return false;
      overrides.set(key, descriptor.value);
      return true;
    },
    deleteProperty(_shadow, key) {
      // a replaced key deleted reads as the original's again
      if (overrides.delete(key)) return true;
      return Reflect.deleteProperty(original, key);
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(original),
    setPrototypeOf: (_shadow, prototype) => Reflect.setPrototypeOf(original, prototype),
  };
  return new Proxy(shadow, handler) as T;
}

/**
 * Whether a replaced key enumerates: as the original's property does, found on the original or on
 * its prototype chain, so that a spread of the stand-in has the keys a spread of the original has
 * (plus a replaced key the original only inherited enumerably, as from an object literal). A class
 * method (LangChain's `_call`) is not enumerable; a key the original does not have at all is.
 */
function enumerableOn(original: object, key: string | symbol): boolean {
  for (let holder: object | null = original; holder !== null; holder = Reflect.getPrototypeOf(holder)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(holder, key);
    if (descriptor !== undefined) return descriptor.enumerable === true;
  }
  return true;
}
