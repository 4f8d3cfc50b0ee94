import { COMPOSED_LISTENERS_KEY } from './protocol.js';

/** How deep a walk into composites of composites goes: a hostile object's parts may hold itself. */
export const MAX_COMPOSITE_DEPTH = 8;

/**
 * The parts of a composite listener (composite-listener.ts keeps them under `COMPOSED_LISTENERS_KEY`),
 * or `undefined` for any other listener. A Proxy's trap that throws throws here: the caller decides.
 */
export function composedParts(listener: object): readonly unknown[] | undefined {
  const parts = (listener as { [COMPOSED_LISTENERS_KEY]?: unknown })[COMPOSED_LISTENERS_KEY];
  return Array.isArray(parts) ? parts : undefined;
}
