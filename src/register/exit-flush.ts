import { type LoopCallbacksWatch, watchLoopCallbacks } from './loop-callbacks.js';

const EXIT_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs `shutdown` (the SDK's flush) when the process ends, waiting for it `timeoutMs` at most,
 * so that the app ends as it would without it: at the same point, with the same exit code, after
 * the same `'beforeExit'` events, by the same signal.
 *
 * A flush is asynchronous: it keeps the event loop alive, and when the loop empties after it, Node
 * emits `'beforeExit'` once more. The app's own `'beforeExit'` handlers must not see that one (a
 * handler that schedules nothing would run twice), so every `'beforeExit'` goes through here
 * (`process.emit` is wrapped for that one event; Node looks it up at each emission):
 *
 * - it is given to the app's handlers as Node gave it, and the loop is kept alive for one more turn
 *   while an async hook watches whether any callback of the app's runs (`watchLoopCallbacks`);
 * - at the next `'beforeExit'`: if one ran, the app's handlers had scheduled work, and Node would
 *   have emitted this one without register too: it is given to them as well, and watched again.
 *   If none ran, the loop emptied for good when they returned, and the process would have exited
 *   there. That `'beforeExit'` and any after it are register's own, given to no handler: the SDK is
 *   flushed (what the handlers ended included), then the loop empties and the process exits as Node
 *   ends it (`process.exitCode`; 13 for an unsettled top-level await). If the flush is not done
 *   after `timeoutMs` (a collector down or not answering: the exporters retry for 10 s), or the
 *   loop is still busy then, `process.exit()` ends it with `process.exitCode`.
 *
 * An app with no handler: one watched turn, then the flush and the exit. An app whose handler
 * schedules work until its queue is empty: every `'beforeExit'` it would get, the last one (which
 * schedules nothing) included. What an app could tell: the watched turn lets a timer it unref'd
 * run if it is due; an export of register's own started in that turn (a full span batch) counts as
 * work, and the handlers then get one `'beforeExit'` more.
 *
 * Under Bun (which emits `'beforeExit'` without `process.emit`, and has no async hooks): a listener
 * of register's own flushes at the first `'beforeExit'`; the app's handlers get one more after it.
 *
 * On `SIGTERM` and `SIGINT`, the flush too, for `timeoutMs` at most; then, if the app has no
 * handler of its own for the signal, the process ends by it, as it would have.
 */
export function flushAtExit(shutdown: () => Promise<void>, timeoutMs: number): void {
  let flushing: Promise<void> | undefined;
  const flush = () => {
    flushing ??= shutdown().catch(() => undefined);
    return flushing;
  };

  let exiting = false;
  const exitAfterTheFlush = () => {
    exiting = true;
    exitOnceDone(flush(), timeoutMs);
  };
  if (emitsBeforeExitWithoutProcessEmit()) {
    // the first 'beforeExit' is the one the app would get: flushed then; the flush's own work
    // empties the loop once more, and that 'beforeExit' reaches the app's handlers too (no async
    // hooks here to tell it from one their work made)
    process.on('beforeExit', () => {
      if (!exiting) exitAfterTheFlush();
    });
  } else {
    wrapBeforeExit(exitAfterTheFlush, () => exiting);
  }

  for (const signal of EXIT_SIGNALS) {
    process.once(signal, () => {
      void within(timeoutMs, flush()).then(() => {
        // no handler of the app's own: end as the signal would have without this module
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    });
  }
}

/**
 * Bun calls the `'beforeExit'` listeners from its event loop without going through `process.emit`,
 * so the wrapper never sees the event; it has no async hooks either (`createHook` does nothing).
 */
function emitsBeforeExitWithoutProcessEmit(): boolean {
  return (process.versions as Record<string, string | undefined>).bun !== undefined;
}

/** Every `'beforeExit'` through `process.emit`, as the comment of `flushAtExit` says. */
function wrapBeforeExit(exitAfterTheFlush: () => void, exiting: () => boolean): void {
  let watch: LoopCallbacksWatch | undefined;
  const emit = process.emit;
  process.emit = function emitBeforeExitAsWithoutRegister(this: NodeJS.Process, event: string | symbol, ...args) {
    if (event !== 'beforeExit') return Reflect.apply(emit, this, [event, ...args]);
    if (exiting()) return false;
    if (watch !== undefined && !watch.stop()) {
      exitAfterTheFlush();
      return false;
    }
    let hadListeners = false;
    watch = watchLoopCallbacks(() => {
      hadListeners = Reflect.apply(emit, this, [event, ...args]);
    });
    return hadListeners;
  } as typeof process.emit;
}

/**
 * Lets the process exit by itself once `work` is done (the loop empties); ends it with
 * `process.exit()` if it is still running after `ms`.
 */
function exitOnceDone(work: Promise<void>, ms: number): void {
  const deadline = setTimeout(() => process.exit(), ms);
  void work.then(() => deadline.unref());
}

/** Settles when `work` does, or after `ms`, whichever comes first. */
function within(ms: number, work: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(resolve, ms);
    void work.then(() => {
      clearTimeout(deadline);
      resolve();
    });
  });
}
