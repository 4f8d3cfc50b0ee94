import { functionToolCallback, type ToolCallback, ToolCallListeners, type ToolContext } from 'otel-tool-calls';
import { describe, expectTypeOf, it } from 'vitest';

describe('ToolCallListeners.wrap types', () => {
  it('keeps the input type, and says the output may be the text a listener reports', () => {
    const weather = functionToolCallback({ name: 'weather' }, async (_input: { city: string }) => ({
      temperature: 21,
    }));
    const wrapped = ToolCallListeners.wrap(weather, {});
    expectTypeOf(wrapped).toEqualTypeOf<ToolCallback<{ city: string }, Promise<{ temperature: number } | string>>>();
    expectTypeOf(wrapped.call).parameters.toEqualTypeOf<[{ city: string }, (ToolContext | undefined)?]>();
    expectTypeOf(wrapped.call({ city: 'Paris' })).resolves.toEqualTypeOf<{ temperature: number } | string>();
  });

  it('keeps a sync and a streaming output, either of which may be a reported text', () => {
    const sync = ToolCallListeners.wrap(
      functionToolCallback({ name: 's' }, (n: number) => n * 2),
      {},
    );
    expectTypeOf(sync.call(1)).toEqualTypeOf<number | string>();
    const stream = ToolCallListeners.wrap(
      functionToolCallback({ name: 'g' }, async function* (q: string) {
        yield q;
      }),
      {},
    );
    // an async generator still, whose last chunk may be the reported text (a string here too)
    expectTypeOf(stream.call('q')).toEqualTypeOf<AsyncGenerator<string, void, unknown>>();
  });

  it('wrapAll keeps the element type', () => {
    const tools = [functionToolCallback({ name: 'a' }, (s: string) => s.length)];
    expectTypeOf(ToolCallListeners.wrapAll(tools, {})).toEqualTypeOf<ToolCallback<string, number | string>[]>();
  });

  it('wrapAll keeps each type of a list of different tools', () => {
    const length = functionToolCallback({ name: 'length' }, (s: string) => s.length);
    const fetchUser = functionToolCallback({ name: 'user' }, async (id: number) => ({ id }));
    const [first, second] = ToolCallListeners.wrapAll([length, fetchUser], {});
    expectTypeOf(first).toEqualTypeOf<ToolCallback<string, number | string>>();
    expectTypeOf(second).toEqualTypeOf<ToolCallback<number, Promise<{ id: number } | string>>>();
  });

  it('types the listener context from beforeCall', () => {
    ToolCallListeners.wrap(
      functionToolCallback({ name: 'x' }, () => 1),
      {
        beforeCall: () => ({ startedAt: 1 }),
        afterCompletion: (context) => expectTypeOf(context).toEqualTypeOf<{ startedAt: number }>(),
      },
    );
  });
});
