import { logger } from '../internal/logger.js';
import { OPEN_SESSIONS_KEY } from '../internal/protocol.js';

/*
 * Sessions a protocol adapter has open (MCP's `mcp.{client,server}.session.duration`), each recorded
 * when its connection closes. Some never close before the process ends: a 1.x stdio server is not
 * told when its client leaves (its transport fires no close at the end of stdin), a client the app
 * never closes. What ends the process's telemetry (register's flush at exit,
 * `startToolCallTelemetry().shutdown()`) ends them first, so that their samples are in the last
 * export. A registered key: the package's ESM and CommonJS builds, loaded together, share the set.
 */

type End = () => void;
const registry = globalThis as { [OPEN_SESSIONS_KEY]?: Set<WeakRef<End>> };
registry[OPEN_SESSIONS_KEY] ??= new Set();
const openSessions: Set<WeakRef<End>> = registry[OPEN_SESSIONS_KEY];
/*
 * Held weakly: a session the app dropped without closing it (its client or server, transport and all,
 * collected) must not be kept alive until the process ends; it is forgotten with them. Its `end` is
 * kept alive by its transport (the transport's `onclose` calls it).
 */
const forgotten =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<WeakRef<End>>((ref) => openSessions.delete(ref))
    : undefined;

/** Keeps `end` (records the session as ended now) until `closed` is called: the session ended by itself. */
export function keepOpenSession(end: End): { closed(): void } {
  if (typeof WeakRef !== 'function' || forgotten === undefined) return { closed: () => {} };
  const ref = new WeakRef(end);
  openSessions.add(ref);
  forgotten.register(end, ref, ref);
  return {
    closed: () => {
      openSessions.delete(ref);
      forgotten.unregister(ref);
    },
  };
}

/** Ends every session still open, now (the process's telemetry is ending): each records its sample once. */
export function endOpenSessions(): void {
  for (const ref of [...openSessions]) {
    openSessions.delete(ref);
    try {
      ref.deref()?.();
    } catch (error) {
      logger.error('could not record a session still open at exit', error);
    }
  }
}
