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
