import { onRequestHandlers } from './protocol-seam.js';

/*
 * The protocol version an `initialize` exchange settled on, for the side that does not keep it: a
 * 1.x Client keeps it only on a Streamable HTTP transport, a 1.x Server not at all, so over stdio
 * neither side would know its `mcp.protocol.version`. Seen where the exchange passes: the client's
 * `initialize` request resolving (client-messages.ts), the server's `initialize` handler returning.
 * Known only when the client or server was instrumented before it connected.
 */

const versions = new WeakMap<object, unknown>();

/** The version `side` (a Client, or a low-level Server) negotiated, if it was seen. */
export function seenVersion(side: unknown): unknown {
  return side !== null && typeof side === 'object' ? versions.get(side) : undefined;
}

/** Keeps the `protocolVersion` of an `initialize` result for `side`; the result passes on untouched. */
export function keepVersionOf(side: object, pending: unknown): void {
  if (pending === null || typeof pending !== 'object' || typeof (pending as Promise<unknown>).then !== 'function') {
    return;
  }
  (pending as Promise<unknown>).then(
    (result) => {
      const version = (result as { protocolVersion?: unknown } | null | undefined)?.protocolVersion;
      if (typeof version === 'string') versions.set(side, version);
    },
    () => {}, // the caller handles its own rejection
  );
}

/** Wraps the low-level Server's `initialize` handler (both lines) to keep the version. */
export function watchInitialize(lowLevel: unknown): void {
  if (lowLevel === null || typeof lowLevel !== 'object') return;
  onRequestHandlers(lowLevel, 'negotiated-version', (method, handler) =>
    method !== 'initialize'
      ? undefined
      : function initializeWatched(this: unknown, ...args: unknown[]) {
          const answer = handler.apply(this, args);
          keepVersionOf(lowLevel, answer);
          return answer;
        },
  );
}
