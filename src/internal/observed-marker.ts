import { OBSERVED_KEY as OBSERVED } from './protocol.js';

/**
 * "Observed once": what an adapter already observes carries this mark, so that the zero-code
 * instrumentation (`otel-tool-calls/instrumentation`) leaves it alone. `Symbol.for`, not a module
 * symbol: the ESM and the CommonJS builds of this package (both may be loaded in one process) see
 * the same mark. Non-enumerable, so a spread copy of a tool does not carry it; the adapters mark
 * the observed function itself (`execute`, `_call`, `invoke`), which a copy of the tool keeps.
 */

/** Marks `target` (an observed tool function, or an instrumented MCP client or server) and returns it. */
export function markObserved<T extends object>(target: T): T {
  try {
    Object.defineProperty(target, OBSERVED, { value: true, configurable: true, enumerable: false, writable: false });
  } catch {
    // a frozen object cannot carry the mark: it is observed a second time, never broken
  }
  return target;
}

/** True when an adapter of this package already observes `value`. */
export function isObserved(value: unknown): boolean {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    (value as { [OBSERVED]?: unknown })[OBSERVED] === true
  );
}
