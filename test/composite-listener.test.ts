import { AsyncLocalStorage } from 'node:async_hooks';
import { functionToolCallback, type ToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { describe, expect, it } from 'vitest';

const tool = functionToolCallback({ name: 't' }, (input: string) => `ok:${input}`);
const failingTool = functionToolCallback({ name: 'f' }, (): string => {
  throw new Error('boom');
});

/** A listener that logs `<name>.<method>(<context>)` and answers onError with `answer`. */
function logging(name: string, log: string[], answer: string | null = null): ToolCallListener<string> {
  return {
    beforeCall: () => {
      log.push(`${name}.beforeCall`);
      return `ctx-${name}`;
    },
    afterCall: (context) => void log.push(`${name}.afterCall(${context})`),
    onError: (context) => {
      log.push(`${name}.onError(${context})`);
      return answer;
    },
    afterCompletion: (context) => void log.push(`${name}.afterCompletion(${context})`),
  };
}

describe('ToolCallListeners.composite', () => {
  it('runs beforeCall in order and the others in reverse, each with its own context, like nested wrapping', () => {
    const log: string[] = [];
    const result = ToolCallListeners.wrap(
      tool,
      ToolCallListeners.composite(logging('a', log), logging('b', log), logging('c', log)),
    ).call('x');
    expect(result).toBe('ok:x');
    expect(log).toEqual([
      'a.beforeCall',
      'b.beforeCall',
      'c.beforeCall',
      'c.afterCall(ctx-c)',
      'b.afterCall(ctx-b)',
      'a.afterCall(ctx-a)',
      'c.afterCompletion(ctx-c)',
      'b.afterCompletion(ctx-b)',
      'a.afterCompletion(ctx-a)',
    ]);
  });

  it('calls every onError and returns the first non-null string in reverse order', () => {
    const log: string[] = [];
    const listener = ToolCallListeners.composite(
      logging('a', log, 'from a'),
      logging('b', log, 'from b'),
      logging('c', log),
    );
    expect(ToolCallListeners.wrap(failingTool, listener).call(undefined)).toBe('from b');
    expect(log.filter((line) => line.includes('onError'))).toEqual([
      'c.onError(ctx-c)',
      'b.onError(ctx-b)',
      'a.onError(ctx-a)',
    ]);
  });

  it('rethrows when no listener reports', () => {
    const log: string[] = [];
    const listener = ToolCallListeners.composite(logging('a', log), logging('b', log));
    expect(() => ToolCallListeners.wrap(failingTool, listener).call(undefined)).toThrow('boom');
  });

  it('keeps two contexts for the same listener given twice', () => {
    let n = 0;
    const contexts: number[] = [];
    const counting: ToolCallListener<number> = {
      beforeCall: () => ++n,
      afterCompletion: (context) => void contexts.push(context),
    };
    ToolCallListeners.wrap(tool, ToolCallListeners.composite(counting, counting)).call('x');
    expect(contexts).toEqual([2, 1]);
  });

  it('still calls every listener when one throws, then rethrows the first error', () => {
    const log: string[] = [];
    const throwingAfterCall: ToolCallListener = {
      afterCall: () => {
        throw new Error('afterCall failed');
      },
    };
    const listener = ToolCallListeners.composite(logging('a', log, 'reported'), throwingAfterCall, logging('c', log));
    // the afterCall error reaches onError of every listener, as the guarded block of the reference
    expect(ToolCallListeners.wrap(tool, listener).call('x')).toBe('reported');
    expect(log).toEqual([
      'a.beforeCall',
      'c.beforeCall',
      'c.afterCall(ctx-c)',
      'a.afterCall(ctx-a)',
      'c.onError(ctx-c)',
      'a.onError(ctx-a)',
      'c.afterCompletion(ctx-c)',
      'a.afterCompletion(ctx-a)',
    ]);
  });

  it('ends the listeners already started when a later beforeCall throws', () => {
    const log: string[] = [];
    const refusing: ToolCallListener = {
      beforeCall: () => {
        throw new Error('refused');
      },
    };
    const listener = ToolCallListeners.composite(logging('a', log), logging('b', log), refusing, logging('d', log));
    expect(() => ToolCallListeners.wrap(tool, listener).call('x')).toThrow('refused');
    expect(log).toEqual([
      'a.beforeCall',
      'b.beforeCall',
      'b.onError(ctx-b)',
      'a.onError(ctx-a)',
      'b.afterCompletion(ctx-b)',
      'a.afterCompletion(ctx-a)',
    ]);
  });

  it('nests runInContext, the first listener outermost', () => {
    const storage = new AsyncLocalStorage<string[]>();
    const scoped = (name: string): ToolCallListener<string> => ({
      beforeCall: () => name,
      runInContext: (context, run) => storage.run([...(storage.getStore() ?? []), context], run),
    });
    const seen = functionToolCallback({ name: 'scope' }, () => storage.getStore());
    const listener = ToolCallListeners.composite(scoped('a'), {}, scoped('c'));
    expect(ToolCallListeners.wrap(seen, listener).call(undefined)).toEqual(['a', 'c']);
  });
});
