import { forwardingObject } from '../../internal/forwarding-object.js';

/*
 * The `completion` of an InvokeAgent / InvokeInlineAgent response, watched as the app reads it: the
 * SDK's async iterable (its event-stream unmarshaller) in a stand-in whose iterator hands each event
 * to `onEvent` just before the app gets it, so that a call starts when the app is handed it. Every
 * event, the end of the stream, an error and the app stopping early (`return()`) pass through as they
 * are; any other property is the SDK's own.
 */

type Step = IteratorResult<unknown>;

/** An iterator over `source`'s iterator that tells `onEvent` of each event as it is handed out. */
function watchedIterator(
  source: AsyncIterator<unknown>,
  onEvent: (event: unknown) => void,
): AsyncIterableIterator<unknown> {
  const iterator: AsyncIterableIterator<unknown> = {
    async next(...args: [] | [unknown]): Promise<Step> {
      const step = await source.next(...args);
      if (!step.done) onEvent(step.value);
      return step;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  if (typeof source.return === 'function')
    iterator.return = (value?: unknown) => (source.return as (value?: unknown) => Promise<Step>)(value);
  if (typeof source.throw === 'function')
    iterator.throw = (error?: unknown) => (source.throw as (error?: unknown) => Promise<Step>)(error);
  return iterator;
}

/** A stand-in for `completion` whose events `onEvent` sees as the app reads them; `completion` itself when it is not an async iterable. */
export function watchedCompletion(completion: unknown, onEvent: (event: unknown) => void): unknown {
  if (completion === null || typeof completion !== 'object') return completion;
  const iterable = completion as AsyncIterable<unknown> & Partial<AsyncIterator<unknown>>;
  const iterate = iterable[Symbol.asyncIterator];
  if (typeof iterate !== 'function') return completion;
  // an iterable that is its own iterator (an async generator): one watched iterator over it, for both ways in
  let own: AsyncIterableIterator<unknown> | undefined;
  const ownWatched = () => {
    own ??= watchedIterator(iterable as AsyncIterator<unknown>, onEvent);
    return own;
  };
  const replaced = new Map<string | symbol, unknown>([
    [
      Symbol.asyncIterator,
      function asyncIterator() {
        const source = Reflect.apply(iterate, iterable, []) as AsyncIterator<unknown>;
        return source === (iterable as unknown) ? ownWatched() : watchedIterator(source, onEvent);
      },
    ],
  ]);
  for (const key of ['next', 'return', 'throw'] as const) {
    if (typeof iterable[key] !== 'function') continue;
    replaced.set(key, (...args: unknown[]) => (ownWatched()[key] as (...a: unknown[]) => unknown)(...args));
  }
  return forwardingObject(completion, replaced);
}
