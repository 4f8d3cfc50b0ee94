import { constants } from 'node:os';
import { type LoopCallbacksWatch, watchLoopCallbacks } from './loop-callbacks.js';
import { withoutKeepingAlive } from './without-keeping-alive.js';

const EXIT_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs `telemetry.shutdown` (the SDK's flush) when the process ends, waiting for it `timeoutMs` at most,
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
 * On `SIGTERM` and `SIGINT`, decided when the signal arrives (a `process.once` handler of the app's
 * is gone by the time a flush is done):
 * - the app has no handler of its own: the SDK is flushed and shut down, for `timeoutMs` at most,
 *   then the process ends by the signal, as it would have;
 * - it has one (a graceful drain): what is recorded so far is flushed, and nothing more. The SDK is
 *   not shut down and the signal not raised again: the app decides when it ends, what it records
 *   until then is flushed at its exit as above, and that flush is bounded by `timeoutMs` as any
 *   other. The flush of the signal keeps nothing alive (`withoutKeepingAlive`): an exporter that
 *   retries a collector that is down would otherwise hold the app's exit back for 10 s.
 *   An app may end by the signal after all: its handler, gone, raises it again (`signal-exit` does it
 *   at once, most graceful-shutdown helpers once they have drained). Nothing handles that one, and
 *   Node would end the process at `process.kill` with nothing flushed: from the first signal on,
 *   such a `process.kill` of the app's own process is carried out after the flush at exit (the SDK
 *   shut down, `timeoutMs` at most), so the process ends by the signal, with what it recorded before
 *   the signal and during its drain exported (`killAfterTheFlush`). Its listener count is what the
 *   app's code sees as without register: a listener of register's own kept for the second signal
 *   would make `signal-exit` leave the signal to it, and the app would not end.
 *
 * `telemetry.shutdown` is the one flush at exit: what must end before it (an open session) goes
 * in it, before the SDK's own.
 */
export function flushAtExit(telemetry: ExitTelemetry, timeoutMs: number): void {
  let shuttingDown: Promise<void> | undefined;
  const shutdown = () => {
    // a throw of its own included: the app ends as it would have, whatever the flush does
    shuttingDown ??= Promise.resolve()
      .then(() => telemetry.shutdown())
      .catch(() => undefined);
    return shuttingDown;
  };

  let exiting = false;
  const exitAfterTheFlush = () => {
    exiting = true;
    exitOnceDone(shutdown(), timeoutMs);
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

  const kill = process.kill;
  let raisedAfterTheFlush = false;
  for (const signal of EXIT_SIGNALS) {
    process.once(signal, () => {
      // this listener is gone already: what is left is the app's
      if (process.listenerCount(signal) > 0) {
        void withoutKeepingAlive(() => telemetry.forceFlush()).catch(() => undefined);
        if (!raisedAfterTheFlush) {
          raisedAfterTheFlush = true;
          process.kill = killAfterTheFlush(kill, () => within(timeoutMs, shutdown()));
        }
        return;
      }
      // no handler of the app's own: end as the signal would have without this module
      void within(timeoutMs, shutdown()).then(() => Reflect.apply(kill, process, [process.pid, signal]));
    });
  }
}

/**
 * `process.kill` where a signal of `EXIT_SIGNALS` raised at this very process with nothing listening
 * for it (it would end the process at once) waits for `flush` first; any other call is `kill`'s.
 */
function killAfterTheFlush(kill: typeof process.kill, flush: () => Promise<void>): typeof process.kill {
  return function killAfterTheFlush(this: unknown, ...args: Parameters<typeof process.kill>) {
    const [pid, signal = 'SIGTERM'] = args;
    const name = typeof signal === 'number' ? signalName(signal) : signal;
    const endsTheProcess =
      (typeof pid === 'number' || typeof pid === 'string') &&
      Number(pid) === process.pid &&
      (EXIT_SIGNALS as readonly unknown[]).includes(name) &&
      process.listenerCount(name as NodeJS.Signals) === 0;
    if (!endsTheProcess) return Reflect.apply(kill, this, args);
    void flush().then(() => Reflect.apply(kill, process, args));
    return true;
  } as typeof process.kill;
}

/** The name of signal number `signal` (`15`: `SIGTERM`). */
function signalName(signal: number): string | undefined {
  return Object.entries(constants.signals).find(([, number]) => number === signal)?.[0];
}

/** What register flushes: its SDK, and what must end before the SDK's flush at exit. */
export interface ExitTelemetry {
  /** Exports what is recorded so far; the SDK goes on recording. */
  forceFlush(): Promise<void>;
  /** The flush at exit: exports everything and stops. Called once. */
  shutdown(): Promise<void>;
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
