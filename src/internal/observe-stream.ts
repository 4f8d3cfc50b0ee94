import type { Invocation } from './invocation.js';
import { ASYNC_GENERATOR_PROTOTYPE } from './is-async-iterable.js';

type Step = IteratorResult<unknown>;

/*
 * A stream nobody iterates to its end, nor closes, and then drops: its invocation still ends
 * (`afterCompletion` only, as for a consumer that stops early) when the wrapper is collected, so
 * that no span stays open forever. The held value is the invocation, which does not reference the
 * wrapper. A listener that throws there has no caller to throw to: the error is dropped.
 */
const dropped = new FinalizationRegistry<Invocation<unknown>>((invocation) => {
  try {
    invocation.complete();
  } catch {
    // nowhere to report it: the decorator has no logger, and throwing here would crash the host
  }
});

/**
 * Passes every chunk of a streaming result (an async generator) through unchanged. `afterCall`
 * gets the last chunk when the stream ends; an error while iterating goes to `onError`, and a
 * reported text becomes the final chunk (the AI SDK takes the last chunk as the tool output). A
 * consumer that stops early (`break`, `return()`) ends the invocation with `afterCompletion` only:
 * there is no result. Each step of the source runs through `runInContext`, so spans the tool body
 * creates while producing a chunk are children of the tool call. `report` turns a reported text
 * into the chunk the consumer gets.
 *
 * `next`, `return` and `throw` run one at a time, in call order, as an async generator's own do:
 * so concurrent `next()` calls, or a `return()` while a `next()` is pending, see the invocation end
 * once, after that `next()` settled, and never call a listener after `afterCompletion`.
 */
export function observeStream<Context, Reported>(
  source: AsyncGenerator<unknown, unknown, unknown>,
  invocation: Invocation<Context>,
  report: (text: string) => Reported,
): AsyncGenerator<unknown, unknown, unknown> {
  let finished = false;
  let last: unknown;
  let queued = 0;
  let queue: Promise<void> | undefined;
  const release = () => {
    queued--;
  };

  /** Runs `operation` after every operation called before it has settled. */
  const serially = (operation: () => Promise<Step>): Promise<Step> => {
    const result = queued === 0 ? operation() : (queue as Promise<void>).then(operation);
    queued++;
    queue = result.then(release, release);
    return result;
  };

  const failed = (error: unknown): Step => {
    finished = true;
    // throws the original error when the listener does not report
    return { done: false, value: report(invocation.fail(error)) };
  };

  // afterCall is in the guarded block: if it throws, a reported text is the final chunk
  const ended = (step: Step): Step => {
    try {
      invocation.afterCall(last);
    } catch (error) {
      return failed(error);
    }
    finished = true;
    invocation.complete();
    return step;
  };

  /** One step of the source, in the guarded block: a malformed step fails the invocation too. */
  const advance = async (produce: () => unknown): Promise<Step> => {
    let step: Step;
    let done: unknown;
    try {
      step = (await invocation.run(produce)) as Step;
      // not an object, or a `done` getter that throws: unwrapped, the consumer gets a TypeError (or
      // that getter's error) as well, and here the invocation must still end
      if (step === null || (typeof step !== 'object' && typeof step !== 'function')) {
        throw new TypeError(`Iterator result ${describe(step)} is not an object`);
      }
      done = step.done;
      if (!done) last = step.value;
    } catch (error) {
      return failed(error);
    }
    return done ? ended(step) : step;
  };

  // an async generator itself (its own next/return/throw over the inherited ones): so that a
  // decorator wrapping this decorator's callback observes it as a stream too
  const stream = Object.assign(Object.create(ASYNC_GENERATOR_PROTOTYPE) as AsyncGenerator<unknown, unknown, unknown>, {
    // the arguments as given: a two-way generator gets the value sent with next(value)
    next(...args: [] | [unknown]): Promise<Step> {
      return serially(async () => {
        if (finished) return { done: true, value: undefined };
        return advance(() => source.next(...args));
      });
    },
    return(value?: unknown): Promise<Step> {
      return serially(async () => {
        if (!finished) {
          finished = true;
          try {
            await invocation.run(() => source.return(value));
          } finally {
            invocation.complete();
          }
        }
        return { done: true, value };
      });
    },
    throw(error?: unknown): Promise<Step> {
      return serially(async () => {
        if (finished) throw error;
        if (typeof source.throw !== 'function') return failed(error);
        return advance(() => source.throw(error));
      });
    },
  });
  dropped.register(stream, invocation as Invocation<unknown>);
  return stream;
}

function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
