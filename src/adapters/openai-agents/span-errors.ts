import { AsyncLocalStorage } from 'node:async_hooks';

type RecordError = (error: unknown) => void;

/** The call that records a `setError` made in its async context, and the span it watches. */
interface Recording {
  readonly span: object;
  readonly record: RecordError;
}

/** A span's `setError` as it was before the watch, and how many calls watch it now. */
interface Watch {
  readonly observed: (...args: unknown[]) => unknown;
  readonly own: PropertyDescriptor | undefined;
  calls: number;
}

// our own context: the SDK's tracing context (what the tool body sees) is never changed
const recording = new AsyncLocalStorage<Recording>();
const watches = new WeakMap<object, Watch>();

/**
 * Runs `invoke` with the SDK's current tracing span left as it is (the tool body sees that very
 * span), and calls `record` for each `setError` made on that span in the async context of this call.
 *
 * Why on the span itself: the SDK reports a failure it turns into tool output only by calling
 * `getCurrentSpan()?.setError(...)`, and a stand-in span would be what the tool body sees too (it
 * reads the same current span). So while calls run, the span gets an own, non-enumerable `setError`
 * that tells the call whose context it runs in, then does what the span's own `setError` does; the
 * span is restored when the last of them settles. A call made inside this one (a tool that invokes
 * an observed tool) records its own, in its own context.
 *
 * `watched` is false when the span cannot carry the watch (frozen, no `setError` function, or a
 * property read that throws): `invoke` then ran as it is, and no failure could be seen.
 */
export async function recordSpanErrors<T>(
  span: object,
  record: RecordError,
  invoke: () => Promise<T>,
): Promise<{ readonly output: T; readonly watched: boolean }> {
  const watch = startWatching(span);
  if (watch === undefined) return { output: await invoke(), watched: false };
  try {
    return { output: await recording.run({ span, record }, invoke), watched: true };
  } finally {
    stopWatching(span, watch);
  }
}

function startWatching(span: object): Watch | undefined {
  const current = watches.get(span);
  if (current !== undefined) {
    current.calls += 1;
    return current;
  }
  try {
    return installWatch(span);
  } catch {
    // a span whose reads throw (a hostile Proxy) is not watched, and the call runs as it is
    return undefined;
  }
}

function installWatch(span: object): Watch | undefined {
  const own = Reflect.getOwnPropertyDescriptor(span, 'setError');
  const original: unknown = Reflect.get(span, 'setError');
  if (typeof original !== 'function') return undefined;
  const observed = function setError(this: unknown, ...args: unknown[]): unknown {
    const call = recording.getStore();
    if (call?.span === span) call.record(args[0]);
    return Reflect.apply(original as (...args: unknown[]) => unknown, this, args);
  };
  const defined = Reflect.defineProperty(span, 'setError', {
    value: observed,
    writable: true,
    enumerable: own?.enumerable ?? false,
    configurable: true,
  });
  if (!defined) return undefined;
  const watch: Watch = { observed, own, calls: 1 };
  watches.set(span, watch);
  return watch;
}

function stopWatching(span: object, watch: Watch): void {
  watch.calls -= 1;
  if (watch.calls > 0) return;
  watches.delete(span);
  try {
    // a setError someone set on the span meanwhile is theirs: it stays
    if (Reflect.getOwnPropertyDescriptor(span, 'setError')?.value !== watch.observed) return;
    if (watch.own === undefined) Reflect.deleteProperty(span, 'setError');
    else Reflect.defineProperty(span, 'setError', watch.own);
  } catch {
    // the span was made hostile meanwhile: the watch stays on it, and records for no call
  }
}
