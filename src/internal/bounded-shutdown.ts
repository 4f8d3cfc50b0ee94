import { AsyncLocalStorage, createHook } from 'node:async_hooks';

/** How a bounded shutdown ended: its flush done, failed (an export failed), or still running at the bound. */
export type ShutdownOutcome =
  | { readonly outcome: 'done' }
  | { readonly outcome: 'failed'; readonly error: unknown }
  | {
      readonly outcome: 'timed-out';
    };

/** What the flush started: its timers and sockets, each with `unref()`. */
interface Held {
  readonly handles: Set<{ unref(): unknown }>;
  released: boolean;
}

const flushing = new AsyncLocalStorage<Held>();

/**
 * Runs `shutdown` (the SDK's last flush) and waits for it `timeoutMs` at most. At the bound, what the
 * flush holds (an OTLP exporter's retry timers, for 10 s with no collector; a request to one that does
 * not answer) stops keeping the process alive: an app whose own work is over then ends, as it would
 * without telemetry, and one that runs on lets the flush finish in the background.
 *
 * The handles are found with an async hook, enabled while the flush runs, for the resources made
 * inside it (an AsyncLocalStorage scope); a runtime whose hooks do nothing (Bun) keeps them.
 */
export function boundedShutdown(shutdown: () => Promise<void>, timeoutMs: number): Promise<ShutdownOutcome> {
  const held: Held = { handles: new Set(), released: false };
  const hook = createHook({
    init(_asyncId, _type, _triggerAsyncId, resource) {
      if (flushing.getStore() !== held) return;
      const handle = resource as { unref?: unknown };
      if (typeof handle.unref !== 'function') return;
      if (held.released) (handle as { unref(): unknown }).unref();
      else held.handles.add(handle as { unref(): unknown });
    },
  }).enable();
  const flush = flushing.run(held, () => Promise.resolve().then(shutdown));
  const stopWatching = () => {
    hook.disable();
    held.handles.clear();
  };
  void flush.then(stopWatching, stopWatching);
  return new Promise((resolve) => {
    const bound = setTimeout(() => {
      held.released = true;
      for (const handle of held.handles) handle.unref();
      held.handles.clear();
      resolve({ outcome: 'timed-out' });
    }, timeoutMs);
    flush.then(
      () => {
        clearTimeout(bound);
        resolve({ outcome: 'done' });
      },
      (error: unknown) => {
        clearTimeout(bound);
        resolve({ outcome: 'failed', error });
      },
    );
  });
}
