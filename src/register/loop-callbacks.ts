import { createHook, executionAsyncResource } from 'node:async_hooks';

/** What runs within the tick that queued it (after a callback, before the loop goes on): it keeps no loop alive. */
const RUNS_IN_THE_TICK = new Set(['TickObject', 'Microtask', 'PROMISE']);

export interface LoopCallbacksWatch {
  /** Stops watching; true if the event loop ran a callback of the app's since the watch started. */
  stop(): boolean;
}

/**
 * Keeps the event loop alive for one more turn (an immediate of its own) and watches, with an
 * async hook, whether the loop runs any callback of the app's meanwhile: a timer, an immediate, an
 * I/O, thread-pool or handle callback, anything but a nextTick or a promise reaction. A timer or a
 * handle the app unref'd does not count: it ran only because this watch kept the loop alive.
 *
 * Counted at the top only: a callback run from inside another one (an `AsyncResource` a library
 * runs synchronously) or from the code `during` runs is no callback of the loop's.
 */
export function watchLoopCallbacks(during: () => void): LoopCallbacksWatch {
  let ran = false;
  let depth = 0;
  let inDuring = false;
  const runsInTheTick = new Set<number>();
  // an immediate says it is unref'd while it runs (Node unrefs it first): those made meanwhile count
  const immediates = new Set<number>();
  const keepAlive = setImmediate(() => {});
  const hook = createHook({
    init(asyncId, type) {
      if (RUNS_IN_THE_TICK.has(type)) runsInTheTick.add(asyncId);
      else if (type === 'Immediate') immediates.add(asyncId);
    },
    before(asyncId) {
      depth += 1;
      if (ran || inDuring || depth > 1 || runsInTheTick.has(asyncId)) return;
      const resource = executionAsyncResource() as { hasRef?: () => boolean } | undefined;
      if (resource === keepAlive || resource instanceof Promise) return;
      if (!immediates.has(asyncId) && resource?.hasRef?.() === false) return;
      ran = true;
      // the answer is known: nothing more to watch
      hook.disable();
    },
    after() {
      depth -= 1;
    },
  });
  const stop = () => {
    hook.disable();
    clearImmediate(keepAlive);
    return ran;
  };
  hook.enable();
  inDuring = true;
  try {
    during();
  } catch (error) {
    stop();
    throw error;
  } finally {
    inDuring = false;
  }
  return { stop };
}
