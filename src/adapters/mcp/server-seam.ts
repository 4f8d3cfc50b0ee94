/*
 * Where this package reaches into the MCP SDK's low-level Server: its handler Maps
 * (`_requestHandlers`, `_notificationHandlers`), private, keyed by method on the 1.x and 2.x lines.
 * The server modules wrap a handler through these functions instead of reading the fields
 * themselves, so that a change of the SDK's internals is mended here.
 */

export type Handler = (this: unknown, ...args: unknown[]) => unknown;

interface LowLevelInternals {
  _requestHandlers?: unknown;
  _notificationHandlers?: unknown;
}

/** The low-level Server's request handlers by method, when it has that shape. */
export function requestHandlersOf(lowLevel: unknown): Map<unknown, unknown> | undefined {
  const handlers = (lowLevel as LowLevelInternals | null | undefined)?._requestHandlers;
  return handlers instanceof Map ? handlers : undefined;
}

/** The low-level Server's notification handlers by method, when it has that shape. */
export function notificationHandlersOf(lowLevel: unknown): Map<unknown, unknown> | undefined {
  const handlers = (lowLevel as LowLevelInternals | null | undefined)?._notificationHandlers;
  return handlers instanceof Map ? handlers : undefined;
}

/**
 * Replaces the request handler of `method` by `wrap(handler)`; nothing when the Server has none
 * (yet) or `wrap` returns `undefined` (it keeps the handler, e.g. one it already wrapped).
 */
export function wrapRequestHandler(
  lowLevel: unknown,
  method: string,
  wrap: (handler: Handler) => Handler | undefined,
): void {
  const handlers = requestHandlersOf(lowLevel);
  const handler = handlers?.get(method);
  if (handlers === undefined || typeof handler !== 'function') return;
  const wrapped = wrap(handler as Handler);
  if (wrapped !== undefined) handlers.set(method, wrapped);
}
