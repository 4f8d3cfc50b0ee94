import { functionToolCallback, type ToolCallListener, ToolCallListeners, type ToolContext } from 'otel-tool-calls';
import { describe, expect, it } from 'vitest';
import { recordingListener } from './helpers/recording-listener.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const echo = functionToolCallback({ name: 'echo', description: 'echoes' }, (input: string) => `echo:${input}`);
const asyncEcho = functionToolCallback({ name: 'asyncEcho' }, async (input: string) => `echo:${input}`);
const failing = (error: unknown) =>
  functionToolCallback({ name: 'failing' }, (): string => {
    throw error;
  });

describe('1. correlation', () => {
  it('hands what beforeCall returned to afterCall and afterCompletion of the same invocation', () => {
    const listener = recordingListener();
    ToolCallListeners.wrap(echo, listener).call('a');
    expect(listener.events).toMatchObject([
      { kind: 'beforeCall', toolName: 'echo', toolInput: 'a' },
      { kind: 'afterCall', context: 1, toolName: 'echo', result: 'echo:a' },
      { kind: 'afterCompletion', context: 1, toolName: 'echo' },
    ]);
  });

  it('keeps each context with its own invocation across 2,000 interleaved async calls with random delays', async () => {
    const seen: Array<{ input: number; before: number; after: number; completion: number }> = [];
    const pending = new Map<number, { input: number; after?: number }>();
    const listener: ToolCallListener<{ input: number }> = {
      beforeCall: (_name, input) => ({ input: input as number }),
      afterCall(context, _name, input, result) {
        expect(result).toBe((input as number) * 2);
        pending.set(context.input, { input: input as number, after: context.input });
      },
      afterCompletion(context, _name, input) {
        const entry = pending.get(context.input);
        seen.push({
          input: input as number,
          before: context.input,
          after: entry?.after ?? -1,
          completion: context.input,
        });
      },
    };
    const tool = ToolCallListeners.wrap(
      functionToolCallback({ name: 'double' }, async (n: number) => {
        await sleep(Math.random() * 5);
        return n * 2;
      }),
      listener,
    );
    const results = await Promise.all(Array.from({ length: 2000 }, (_, n) => tool.call(n)));
    expect(results).toEqual(Array.from({ length: 2000 }, (_, n) => n * 2));
    expect(seen).toHaveLength(2000);
    for (const entry of seen) {
      expect(entry.before).toBe(entry.input);
      expect(entry.after).toBe(entry.input);
    }
  });
});

describe('2. guarded region', () => {
  it('sends an error from the tool to onError', () => {
    const error = new Error('boom');
    const listener = recordingListener();
    expect(() => ToolCallListeners.wrap(failing(error), listener).call(undefined)).toThrow(error);
    expect(listener.events[1]).toMatchObject({ kind: 'onError', context: 1, error });
  });

  it('sends an error thrown by afterCall to onError, like a tool failure', () => {
    const afterCallError = new Error('afterCall failed');
    const listener = recordingListener(() => 'reported');
    listener.afterCall = () => {
      throw afterCallError;
    };
    const result = ToolCallListeners.wrap(echo, listener).call('x');
    expect(result).toBe('reported');
    expect(listener.events.find((event) => event.kind === 'onError')).toMatchObject({ error: afterCallError });
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });

  it('sends a rejection thrown by afterCall of an async tool to onError', async () => {
    const listener = recordingListener(() => 'reported');
    listener.afterCall = () => {
      throw new Error('afterCall failed');
    };
    await expect(ToolCallListeners.wrap(asyncEcho, listener).call('x')).resolves.toBe('reported');
  });
});

describe('3. error policy of onError', () => {
  it('returns the string onError returns: report-and-continue', () => {
    const listener = recordingListener((error) => `failed: ${(error as Error).message}`);
    expect(ToolCallListeners.wrap(failing(new Error('boom')), listener).call(undefined)).toBe('failed: boom');
  });

  it('resolves to the reported string for a rejecting tool', async () => {
    const tool = functionToolCallback({ name: 'rejects' }, async () => {
      throw new Error('late boom');
    });
    const listener = recordingListener(() => 'reported');
    await expect(ToolCallListeners.wrap(tool, listener).call(undefined)).resolves.toBe('reported');
  });

  it('reports an empty string too: only null and undefined mean rethrow', () => {
    expect(
      ToolCallListeners.wrap(
        failing(new Error('x')),
        recordingListener(() => ''),
      ).call(undefined),
    ).toBe('');
  });

  it.each([
    ['null', () => null],
    ['undefined', () => undefined],
  ])('rethrows the same error object when onError returns %s: fail-fast', (_label, answer) => {
    const error = new Error('boom');
    let thrown: unknown;
    try {
      ToolCallListeners.wrap(failing(error), recordingListener(answer)).call(undefined);
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBe(error);
  });

  it('rethrows the same error object when the listener has no onError', async () => {
    const error = new Error('boom');
    const tool = functionToolCallback({ name: 'rejects' }, () => Promise.reject(error));
    await expect(ToolCallListeners.wrap(tool, {}).call(undefined)).rejects.toBe(error);
  });
});

describe('4. listener errors are not guarded', () => {
  it('a throwing beforeCall keeps the tool from running and propagates', () => {
    let ran = false;
    const tool = functionToolCallback({ name: 't' }, () => {
      ran = true;
    });
    const listener = recordingListener();
    const beforeError = new Error('before failed');
    listener.beforeCall = () => {
      throw beforeError;
    };
    expect(() => ToolCallListeners.wrap(tool, listener).call(undefined)).toThrow(beforeError);
    expect(ran).toBe(false);
  });

  it('a throwing onError replaces the original error', async () => {
    const replacement = new Error('onError failed');
    const listener: ToolCallListener = {
      onError: () => {
        throw replacement;
      },
    };
    expect(() => ToolCallListeners.wrap(failing(new Error('original')), listener).call(undefined)).toThrow(replacement);
    const rejecting = functionToolCallback({ name: 'r' }, () => Promise.reject(new Error('original')));
    await expect(ToolCallListeners.wrap(rejecting, listener).call(undefined)).rejects.toBe(replacement);
  });
});

describe('5. afterCompletion', () => {
  it('runs once after afterCall on success and once after onError on failure', async () => {
    const ok = recordingListener();
    await ToolCallListeners.wrap(asyncEcho, ok).call('x');
    expect(ok.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    const ko = recordingListener();
    expect(() => ToolCallListeners.wrap(failing('x'), ko).call(undefined)).toThrow();
    expect(ko.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });

  it('runs even when onError throws', () => {
    const listener = recordingListener();
    listener.onError = () => {
      throw new Error('onError failed');
    };
    expect(() => ToolCallListeners.wrap(failing('x'), listener).call(undefined)).toThrow('onError failed');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCompletion']);
  });

  it('never runs when beforeCall threw', () => {
    const listener = recordingListener();
    listener.beforeCall = () => {
      throw new Error('no');
    };
    expect(() => ToolCallListeners.wrap(echo, listener).call('x')).toThrow('no');
    expect(listener.kinds()).toEqual([]);
  });
});

describe('6. transparent decoration', () => {
  it('returns the delegate definition and metadata objects untouched', () => {
    const metadata = { returnDirect: true, owner: 'team' };
    const tool = functionToolCallback({ name: 't', inputSchema: { type: 'object' } }, () => 1, metadata);
    const wrapped = ToolCallListeners.wrap(tool, {});
    expect(wrapped.getToolDefinition()).toBe(tool.getToolDefinition());
    expect(wrapped.getToolMetadata()).toBe(metadata);
  });

  it('wraps a wrapped callback: both listeners see the call, outer first', () => {
    const order: string[] = [];
    const named = (name: string): ToolCallListener => ({
      beforeCall: () => order.push(`before ${name}`),
      afterCall: () => void order.push(`after ${name}`),
    });
    const twice = ToolCallListeners.wrap(ToolCallListeners.wrap(echo, named('inner')), named('outer'));
    expect(twice.call('x')).toBe('echo:x');
    expect(order).toEqual(['before outer', 'before inner', 'after inner', 'after outer']);
  });

  it('passes toolContext and the delegate as `this` through untouched', () => {
    const toolContext: ToolContext = { toolCallId: 'call-1', custom: { deep: true } };
    const delegate = {
      marker: 'delegate',
      seen: undefined as unknown,
      self: undefined as unknown,
      getToolDefinition: () => ({ name: 'd' }),
      getToolMetadata: () => ({}),
      call(this: { seen: unknown; self: unknown }, _input: unknown, context?: ToolContext) {
        this.seen = context;
        this.self = this;
        return 'ok';
      },
    };
    const listener = recordingListener();
    ToolCallListeners.wrap(delegate, listener).call({}, toolContext);
    expect(delegate.seen).toBe(toolContext);
    expect(delegate.self).toBe(delegate);
    expect(listener.events[0]).toMatchObject({ kind: 'beforeCall', call: { toolCallId: 'call-1' } });
  });

  it('builds ToolCallInfo from the definition, the metadata and the toolContext', () => {
    const controller = new AbortController();
    const metadata = { returnDirect: false };
    const tool = functionToolCallback({ name: 'info', description: 'd' }, () => 1, metadata);
    const listener = recordingListener();
    ToolCallListeners.wrap(tool, listener).call(null, {
      toolCallId: 'id-7',
      signal: controller.signal,
      framework: 'mcp',
      attributes: { 'mcp.method.name': 'tools/call' },
    });
    const before = listener.events[0];
    expect(before?.kind === 'beforeCall' && before.call).toEqual({
      toolDefinition: tool.getToolDefinition(),
      toolMetadata: metadata,
      toolCallId: 'id-7',
      signal: controller.signal,
      framework: 'mcp',
      attributes: { 'mcp.method.name': 'tools/call' },
    });
  });
});

describe('6b. the ToolCallInfo of an invocation', () => {
  /** A toolContext that counts the reads of its fields. */
  const countingContext = () => {
    const reads: string[] = [];
    const toolContext = new Proxy({ toolCallId: 'call-9' } as ToolContext, {
      get(target, key, receiver) {
        if (typeof key === 'string') reads.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    return { toolContext, reads };
  };

  it('is one object, handed to every hook of the invocation', async () => {
    const seen: unknown[] = [];
    const listener: ToolCallListener = {
      beforeCall: (_name, _input, call) => seen.push(call),
      afterCall: (_context, _name, _input, _result, call) => seen.push(call),
      onError: (_context, _name, _input, _error, call) => {
        seen.push(call);
        return 'reported';
      },
      afterCompletion: (_context, _name, _input, call) => seen.push(call),
    };
    await ToolCallListeners.wrap(asyncEcho, listener).call('a', { toolCallId: 'c-1' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    seen.length = 0;
    ToolCallListeners.wrap(failing(new Error('boom')), listener).call(undefined, { toolCallId: 'c-2' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]).toMatchObject({ toolCallId: 'c-2' });
  });

  it('is not made for a listener with only onError when the call succeeds; a failure gets it whole', async () => {
    const infos: unknown[] = [];
    const listener: ToolCallListener = {
      onError: (_context, name, _input, _error, call) => {
        infos.push(call);
        return `${name} failed`;
      },
    };
    const ok = countingContext();
    expect(await ToolCallListeners.wrap(asyncEcho, listener).call('a', ok.toolContext)).toBe('echo:a');
    expect(ToolCallListeners.wrap(echo, listener).call('b', ok.toolContext)).toBe('echo:b');
    // the delegate got the context as given; the decorator read none of its fields
    expect(ok.reads).toEqual([]);
    expect(infos).toEqual([]);

    const ko = countingContext();
    expect(ToolCallListeners.wrap(failing(new Error('boom')), listener).call(undefined, ko.toolContext)).toBe(
      'failing failed',
    );
    expect(infos).toEqual([expect.objectContaining({ toolCallId: 'call-9', toolDefinition: { name: 'failing' } })]);
    expect(ko.reads).toContain('toolCallId');
  });

  it('is read from toolContext before the tool runs when the listener has beforeCall', () => {
    const toolContext: { toolCallId: string } = { toolCallId: 'before' };
    const mutating = functionToolCallback({ name: 'mutating' }, (_input: unknown, context?: ToolContext) => {
      (context as { toolCallId: string }).toolCallId = 'after';
      return 1;
    });
    const ids: unknown[] = [];
    const listener: ToolCallListener = {
      beforeCall: (_name, _input, call) => ids.push(call.toolCallId),
      afterCall: (_context, _name, _input, _result, call) => ids.push(call.toolCallId),
      afterCompletion: (_context, _name, _input, call) => ids.push(call.toolCallId),
    };
    ToolCallListeners.wrap(mutating, listener).call(null, toolContext);
    expect(toolContext.toolCallId).toBe('after');
    expect(ids).toEqual(['before', 'before', 'before']);
  });
});

describe('7. sync stays sync', () => {
  it('returns a plain value synchronously and fires the listener before returning', () => {
    const listener = recordingListener();
    const result = ToolCallListeners.wrap(echo, listener).call('x');
    expect(result).toBe('echo:x');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('returns a Promise for a Promise-returning tool and fires on settlement', async () => {
    const listener = recordingListener();
    let release: (value: string) => void = () => {};
    const tool = functionToolCallback({ name: 'later' }, () => new Promise<string>((resolve) => (release = resolve)));
    const result = ToolCallListeners.wrap(tool, listener).call(undefined);
    expect(result).toBeInstanceOf(Promise);
    await sleep(1);
    expect(listener.kinds()).toEqual(['beforeCall']);
    release('done');
    await expect(result).resolves.toBe('done');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });
});

describe('8. streaming', () => {
  const streaming = (chunks: unknown[], failAt?: number) =>
    functionToolCallback({ name: 'stream' }, async function* () {
      for (const [index, chunk] of chunks.entries()) {
        if (index === failAt) throw new Error(`failed at ${index}`);
        await sleep(1);
        yield chunk;
      }
    });

  it('passes every chunk through unchanged and gives afterCall the last one when iteration ends', async () => {
    const chunks = [{ progress: 1 }, { progress: 2 }, { final: true }];
    const listener = recordingListener();
    const received: unknown[] = [];
    for await (const chunk of ToolCallListeners.wrap(streaming(chunks), listener).call(
      undefined,
    ) as AsyncIterable<unknown>) {
      received.push(chunk);
      expect(listener.kinds()).toEqual(['beforeCall']);
    }
    expect(received).toHaveLength(3);
    for (const [index, chunk] of received.entries()) expect(chunk).toBe(chunks[index]);
    expect(listener.events.slice(1)).toMatchObject([
      { kind: 'afterCall', result: chunks[2] },
      { kind: 'afterCompletion', context: 1 },
    ]);
  });

  it('sends an error during iteration to onError and rethrows it', async () => {
    const listener = recordingListener();
    const received: unknown[] = [];
    const iterate = async () => {
      for await (const chunk of ToolCallListeners.wrap(streaming([1, 2, 3], 2), listener).call(
        undefined,
      ) as AsyncIterable<unknown>) {
        received.push(chunk);
      }
    };
    await expect(iterate()).rejects.toThrow('failed at 2');
    expect(received).toEqual([1, 2]);
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });

  it('ends a reported stream with the reported text as its last chunk', async () => {
    const listener = recordingListener(() => 'reported');
    const received: unknown[] = [];
    for await (const chunk of ToolCallListeners.wrap(streaming([1, 2], 1), listener).call(
      undefined,
    ) as AsyncIterable<unknown>) {
      received.push(chunk);
    }
    expect(received).toEqual([1, 'reported']);
  });

  it('still ends the invocation when the consumer stops early, and closes the source', async () => {
    let sourceClosed = false;
    const tool = functionToolCallback({ name: 'endless' }, async function* () {
      try {
        for (let n = 0; ; n++) yield n;
      } finally {
        sourceClosed = true;
      }
    });
    const listener = recordingListener();
    for await (const chunk of ToolCallListeners.wrap(tool, listener).call(undefined) as AsyncIterable<number>) {
      if (chunk === 2) break;
    }
    expect(sourceClosed).toBe(true);
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCompletion']);
  });
});

describe('9. anything can be thrown', () => {
  it.each([
    ['undefined', undefined],
    ['a string', 'just a string'],
    ['a number', 42],
    ['an object', { reason: 'no message' }],
    ['null', null],
  ])('gives onError %s as is', async (_label, thrown) => {
    const listener = recordingListener();
    let caught: unknown = 'nothing';
    try {
      ToolCallListeners.wrap(failing(thrown), listener).call(undefined);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBe(thrown);
    const onError = listener.events.find((event) => event.kind === 'onError');
    expect(onError && 'error' in onError && onError.error).toBe(thrown);
    expect(onError).toHaveProperty('error');

    const rejecting = functionToolCallback({ name: 'rejects' }, () => Promise.reject(thrown));
    const asyncListener = recordingListener();
    await expect(ToolCallListeners.wrap(rejecting, asyncListener).call(undefined)).rejects.toBe(thrown);
    expect(asyncListener.events[1]).toMatchObject({ kind: 'onError' });
    expect((asyncListener.events[1] as { error: unknown }).error).toBe(thrown);
  });
});

describe('wrapAll', () => {
  it('keeps order and length, each callback wrapped', () => {
    const listener = recordingListener();
    const wrapped = ToolCallListeners.wrapAll([echo, asyncEcho, echo], listener);
    expect(wrapped).toHaveLength(3);
    expect(wrapped.map((tool) => tool.getToolDefinition().name)).toEqual(['echo', 'asyncEcho', 'echo']);
    wrapped[0]?.call('x');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });
});

describe('invalid arguments', () => {
  it('throws a TypeError that names the argument', () => {
    const wrap = ToolCallListeners.wrap as (...args: unknown[]) => unknown;
    const wrapAll = ToolCallListeners.wrapAll as (...args: unknown[]) => unknown;
    expect(() => wrap(undefined, {})).toThrow(
      new TypeError(
        'ToolCallListeners.wrap: `callback` must be a ToolCallback (getToolDefinition, getToolMetadata, call), got undefined',
      ),
    );
    expect(() => wrap(echo, undefined)).toThrow(/ToolCallListeners.wrap: `listener` must be a ToolCallListener/);
    expect(() => wrap(echo, { onError: 'report' })).toThrow(/`listener.onError` must be a function/);
    expect(() => wrapAll(echo, {})).toThrow(/ToolCallListeners.wrapAll: `callbacks` must be an array, got object/);
    expect(() => wrapAll([echo, null], {})).toThrow(/`callbacks\[1\]` must be a ToolCallback/);
    expect(() => (ToolCallListeners.composite as (...args: unknown[]) => unknown)({}, 5)).toThrow(
      /composite \(listeners\[1\]\): `listener` must be/,
    );
    expect(() => functionToolCallback({ name: '' }, () => 1)).toThrow(TypeError);
    expect(() => functionToolCallback({ name: 'x' }, 'nope' as never)).toThrow(/`fn` must be a function/);
  });
});
