import { AsyncResource, createHook } from 'node:async_hooks';

/**
 * Runs `work` so that what it starts does not keep the event loop alive: every timer, socket and
 * other handle made within it (in its async scope, or in one made from there, down the chain of
 * async hooks' trigger ids) is unref'd as it is made. The work still runs while something else keeps the process alive; when nothing
 * else does, the loop empties without waiting for it.
 *
 * Register's flush on a signal the app handles: the OTLP exporters retry a collector that is down
 * for about 10 s, with timers that would keep a process alive whose app has ended, past the bound
 * of the flush at its exit.
 */
export function withoutKeepingAlive(work: () => Promise<void>): Promise<void> {
  const scope = new AsyncResource('otel-tool-calls.flush');
  const descendants = new Set([scope.asyncId()]);
  const hook = createHook({
    init(asyncId, _type, triggerAsyncId, resource) {
      if (!descendants.has(triggerAsyncId)) return;
      descendants.add(asyncId);
      const { unref } = resource as { unref?: () => unknown };
      // not at once: a handle's init hook runs before libuv's init of it, which refs it again
      if (typeof unref === 'function') queueMicrotask(() => Reflect.apply(unref, resource, []));
    },
    destroy(asyncId) {
      descendants.delete(asyncId);
    },
  });
  hook.enable();
  const done = () => {
    hook.disable();
    scope.emitDestroy();
  };
  let running: Promise<void>;
  try {
    running = scope.runInAsyncScope(work);
  } catch (error) {
    done();
    return Promise.reject(error);
  }
  return running.finally(done);
}
