import type { Invocation } from './invocation.js';

/**
 * Passes every chunk of a streaming result through unchanged. `afterCall` gets the last chunk
 * when the stream ends; an error while iterating goes to `onError`, and a reported text becomes the
 * final chunk (the AI SDK takes the last chunk as the tool output). A consumer that stops early
 * (`break`, `return()`) ends the invocation with `afterCompletion` only: there is no result.
 * `report` turns a reported text into the chunk the consumer gets.
 * Each step of the source runs through `runInContext`, so spans the tool body creates while
 * producing a chunk are children of the tool call.
 */
export function observeStream<Context, Reported>(
  source: AsyncIterable<unknown>,
  invocation: Invocation<Context>,
  report: (text: string) => Reported,
): AsyncIterableIterator<unknown> {
  let iterator: AsyncIterator<unknown> | undefined;
  let finished = false;
  let last: unknown;

  const sourceIterator = () => {
    iterator ??= invocation.run(() => source[Symbol.asyncIterator]());
    return iterator;
  };

  const failed = (error: unknown): IteratorResult<unknown> => {
    finished = true;
    // throws the original error when the listener does not report
    return { done: false, value: report(invocation.fail(error)) };
  };

  // afterCall is in the guarded block: if it throws, a reported text is the final chunk
  const ended = (step: IteratorResult<unknown>): IteratorResult<unknown> => {
    try {
      invocation.afterCall(last);
    } catch (error) {
      return failed(error);
    }
    finished = true;
    invocation.complete();
    return step;
  };

  const stream: AsyncIterableIterator<unknown> = {
    [Symbol.asyncIterator]() {
      return stream;
    },
    async next() {
      if (finished) return { done: true, value: undefined };
      let step: IteratorResult<unknown>;
      try {
        const source = sourceIterator();
        step = await invocation.run(() => source.next());
      } catch (error) {
        return failed(error);
      }
      if (!step.done) {
        last = step.value;
        return step;
      }
      return ended(step);
    },
    async return(value?: unknown) {
      if (!finished) {
        finished = true;
        try {
          await iterator?.return?.(value);
        } finally {
          invocation.complete();
        }
      }
      return { done: true, value };
    },
    async throw(error?: unknown) {
      if (finished) throw error;
      try {
        const source = sourceIterator();
        if (typeof source.throw !== 'function') throw error;
        const step = await source.throw(error);
        if (!step.done) {
          last = step.value;
          return step;
        }
        return ended(step);
      } catch (thrown) {
        return failed(thrown);
      }
    },
  };
  return stream;
}
