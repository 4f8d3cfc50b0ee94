import { Readable } from 'node:stream';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';
import { recordingListener } from '../helpers/recording-listener.js';

const telemetry = useTestTelemetry();

/** What an SDK's list call returns: a page of data that can also be iterated across pages. */
class Page {
  readonly data = [{ id: 1 }, { id: 2 }];
  hasNextPage() {
    return false;
  }
  async *[Symbol.asyncIterator]() {
    yield* this.data;
  }
}

class TrackedPromise<T> extends Promise<T> {
  readonly tracked = true;
}

/** What a chained query builder's `then` returns: its own kind, not a native Promise. */
class QueryResult<T> implements PromiseLike<T> {
  constructor(private readonly settled: Promise<T>) {}
  // biome-ignore lint/suspicious/noThenProperty: a thenable of its own class is the point
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): QueryResult<A | B> {
    return new QueryResult(this.settled.then(onFulfilled, onRejected));
  }
}

/** A lazy query: it runs when its `then` is called, once per call. */
class LazyQuery<T> implements PromiseLike<T> {
  runs = 0;
  constructor(private readonly run: () => Promise<T>) {}
  // biome-ignore lint/suspicious/noThenProperty: a thenable of its own class is the point
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): QueryResult<A | B> {
    this.runs++;
    return new QueryResult(this.run()).then(onFulfilled, onRejected);
  }
}

describe('only async generators are observed as streams: every other result keeps its own members', () => {
  it('a Node Readable is returned as is (pipe, on), and its span ends without anyone iterating', async () => {
    const readable = Readable.from(['a', 'b']);
    const tool = functionToolCallback({ name: 'read' }, () => readable);
    // a listener that never reports: the result is the Readable itself
    const result = ToolCallListeners.wrap(tool, telemetry.listener()).call(undefined) as Readable;
    expect(result).toBe(readable);
    expect(typeof result.pipe).toBe('function');
    expect(typeof result.on).toBe('function');
    expect(telemetry.spans()).toHaveLength(1);
    const chunks: unknown[] = [];
    for await (const chunk of result) chunks.push(chunk);
    expect(chunks).toEqual(['a', 'b']);
  });

  it('an SDK page keeps its data and methods, and its span ends at once', () => {
    const page = new Page();
    const listener = recordingListener();
    const result = ToolCallListeners.wrap(
      functionToolCallback({ name: 'list' }, () => page),
      listener,
    ).call(undefined) as Page;
    expect(result).toBe(page);
    expect(result.data).toEqual([{ id: 1 }, { id: 2 }]);
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('a Promise subclass comes back as an instance of that subclass, observed on settlement', async () => {
    const listener = recordingListener();
    const tool = functionToolCallback({ name: 'tracked' }, () => new TrackedPromise<number>((resolve) => resolve(7)));
    const result = ToolCallListeners.wrap(tool, listener).call(undefined);
    expect(result).toBeInstanceOf(TrackedPromise);
    await expect(result).resolves.toBe(7);
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('a thenable runs once, and the caller gets what its own then returns (its class), after the listener saw it', async () => {
    const listener = recordingListener();
    const query = new LazyQuery(async () => [{ id: 1 }]);
    const result = ToolCallListeners.wrap(
      functionToolCallback({ name: 'query' }, () => query),
      listener,
    ).call(undefined);
    expect(result).toBeInstanceOf(QueryResult);
    expect(await result).toEqual([{ id: 1 }]);
    expect(query.runs).toBe(1);
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('a thenable that breaks the rules (both callbacks, twice, a then that returns nothing) is seen settling once', async () => {
    const listener = recordingListener(() => null);
    const unruly = {
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
      then(onFulfilled: (value: unknown) => unknown, onRejected: (error: unknown) => unknown) {
        onFulfilled('first');
        onFulfilled('second');
        try {
          onRejected(new Error('late'));
        } catch {
          // the decorator rethrows to a rejection that comes after the settlement: ignored, as a Promise ignores it
        }
      },
    };
    const result = ToolCallListeners.wrap(
      functionToolCallback({ name: 'unruly' }, () => unruly),
      listener,
    ).call(undefined);
    await expect(result).resolves.toBe('first');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('a thenable whose then throws: a rejection with that error, as await makes it', async () => {
    const failure = new Error('then bug');
    const listener = recordingListener();
    const broken = {
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
      then() {
        throw failure;
      },
    };
    const result = ToolCallListeners.wrap(
      functionToolCallback({ name: 'broken' }, () => broken),
      listener,
    ).call(undefined);
    await expect(result).rejects.toBe(failure);
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });

  it('an async generator is still observed as a stream, chunk by chunk', async () => {
    const listener = recordingListener();
    const tool = functionToolCallback({ name: 'gen' }, async function* () {
      yield 1;
      yield 2;
    });
    const chunks: unknown[] = [];
    for await (const chunk of ToolCallListeners.wrap(tool, listener).call(undefined)) chunks.push(chunk);
    expect(chunks).toEqual([1, 2]);
    expect(listener.events.slice(1)).toMatchObject([{ kind: 'afterCall', result: 2 }, { kind: 'afterCompletion' }]);
  });

  it('a wrapped stream is a stream for a second decorator too', async () => {
    const inner = recordingListener();
    const outer = recordingListener();
    const tool = functionToolCallback({ name: 'gen' }, async function* () {
      yield 'only';
    });
    const twice = ToolCallListeners.wrap(ToolCallListeners.wrap(tool, inner), outer);
    const chunks: unknown[] = [];
    for await (const chunk of twice.call(undefined)) chunks.push(chunk);
    expect(chunks).toEqual(['only']);
    expect(outer.events.slice(1)).toMatchObject([{ kind: 'afterCall', result: 'only' }, { kind: 'afterCompletion' }]);
  });
});
