import { StructuredTool, tool } from '@langchain/core/tools';
import { wrapTools } from 'otel-tool-calls/langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';

/** A tool class as apps write them: a `#private` key read by a getter, by `_call` and by a helper; a counter. */
class Inventory extends StructuredTool {
  readonly #apiKey: string;
  name = 'inventory';
  schema = z.object({ sku: z.string() });
  lookups = 0;

  constructor(apiKey: string) {
    super();
    this.#apiKey = apiKey;
  }

  get description(): string {
    return `Stock levels (key ending ${this.#apiKey.slice(-2)})`;
  }

  async _call({ sku }: { sku: string }): Promise<string> {
    this.lookups++;
    return `${this.#stockOf(sku)} of ${sku} (lookup ${this.lookups}, key ${this.#apiKey})`;
  }

  #stockOf(sku: string): number {
    return sku.length + this.#apiKey.length;
  }
}

describe('wrapTools (LangChain): observes the original tool, never a copy', () => {
  it('runs a tool class whose #private field is read in _call, in a getter and in a helper, as the original', async () => {
    const { listener, kinds, events } = recordingListener();
    const inventory = new Inventory('key-42');

    const [wrapped] = wrapTools([inventory], listener);
    const message = await wrapped.invoke({ name: 'inventory', args: { sku: 'ab' }, id: 'call_1', type: 'tool_call' });

    expect(message.content).toBe('8 of ab (lookup 1, key key-42)');
    expect(wrapped.description).toBe('Stock levels (key ending 42)');
    expect(kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(events[0]).toMatchObject({
      toolName: 'inventory',
      call: { toolDefinition: { description: 'Stock levels (key ending 42)' } },
    });
  });

  it('keeps the state the tool sets on this in _call on the original, call after call', async () => {
    const inventory = new Inventory('k');
    const [wrapped] = wrapTools([inventory], {});

    await wrapped.invoke({ sku: 'a' });
    const second = await wrapped.invoke({ sku: 'a' });
    await inventory.invoke({ sku: 'a' });

    expect(second).toBe('2 of a (lookup 2, key k)');
    expect(inventory.lookups).toBe(3);
    expect(wrapped.lookups).toBe(3);
  });

  it('returns a stand-in of the same class that works through withConfig; the original is not observed', async () => {
    const { listener, kinds } = recordingListener();
    const inventory = new Inventory('k');

    const [wrapped] = wrapTools([inventory], listener);
    const bound = wrapped.withConfig({ tags: ['inventory'] });
    const output = await bound.invoke({ sku: 'abc' });
    await inventory.invoke({ sku: 'abc' });

    expect(wrapped).toBeInstanceOf(Inventory);
    expect(wrapped).not.toBe(inventory);
    expect(output).toBe('4 of abc (lookup 1, key k)');
    expect(kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']); // the call of the original is not
    expect(Object.hasOwn(inventory, '_call')).toBe(false);
  });

  it('reports a tool shared by two wrapTools calls to the listener it was wrapped with, only', async () => {
    const first = recordingListener();
    const second = recordingListener();
    const inventory = new Inventory('k');

    const [forFirst] = wrapTools([inventory], first.listener);
    const [forSecond] = wrapTools([inventory], second.listener);
    await forFirst.invoke({ sku: 'a' });
    await forSecond.invoke({ sku: 'b' });
    await forSecond.invoke({ sku: 'c' });

    expect(first.events.filter((event) => event.kind === 'beforeCall')).toMatchObject([{ toolInput: { sku: 'a' } }]);
    expect(second.events.filter((event) => event.kind === 'beforeCall')).toMatchObject([
      { toolInput: { sku: 'b' } },
      { toolInput: { sku: 'c' } },
    ]);
    expect(inventory.lookups).toBe(3);
  });

  it('observes a frozen tool', async () => {
    const { listener, kinds } = recordingListener();
    const frozen = tool(async ({ city }) => `sunny in ${city}`, {
      name: 'weather',
      description: 'Current weather',
      schema: z.object({ city: z.string() }),
    });
    Object.freeze(frozen);

    const [wrapped] = wrapTools([frozen], listener);
    const message = await wrapped.invoke({ name: 'weather', args: { city: 'Oslo' }, id: 'call_2', type: 'tool_call' });

    expect(message.content).toBe('sunny in Oslo');
    expect(kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });
});
