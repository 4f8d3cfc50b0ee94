import { types } from 'node:util';

const copies = new WeakMap<object, object>();

/**
 * The object whose functions a patch replaces. An ESM namespace (import-in-the-middle's proxy)
 * and plain CommonJS exports are patched in place. Bundled CommonJS (esbuild's `__export`, as the
 * AI SDK ships) defines every export as a non-configurable getter: those exports are copied once,
 * getters kept, and the copy is what `require` returns from then on (require-in-the-middle caches
 * what the patch returns); `enable()` again patches the same copy.
 */
export function patchableExports<Exports extends object>(exports: Exports, names: readonly string[]): Exports {
  if (types.isProxy(exports)) return exports;
  const fixed = names.some((name) => {
    const descriptor = Object.getOwnPropertyDescriptor(exports, name);
    return descriptor !== undefined && descriptor.configurable === false;
  });
  if (!fixed) return exports;
  let copy = copies.get(exports);
  if (copy === undefined) {
    copy = {};
    for (const key of Reflect.ownKeys(exports)) {
      const descriptor = Object.getOwnPropertyDescriptor(exports, key) as PropertyDescriptor;
      Object.defineProperty(copy, key, { ...descriptor, configurable: true });
    }
    copies.set(exports, copy);
  }
  return copy as Exports;
}
