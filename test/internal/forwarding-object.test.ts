import { describe, expect, it } from 'vitest';
import { forwardingObject } from '../../src/internal/forwarding-object.js';

class Tool {
  readonly #secret: string;
  calls = 0;
  constructor(secret: string) {
    this.#secret = secret;
  }
  get secret(): string {
    return this.#secret;
  }
  run(): string {
    return 'original';
  }
}

describe('forwardingObject: stands for the original, with a few properties replaced', () => {
  it('reads every other property on the original itself: #private getters, prototype getters, later state', () => {
    const tool = new Tool('s3cret');
    const standIn = forwardingObject(tool, new Map([['run', () => 'replaced']]));
    expect(standIn.secret).toBe('s3cret');
    expect(standIn.run()).toBe('replaced');
    expect(tool.run()).toBe('original');
    tool.calls = 5;
    expect(standIn.calls).toBe(5);
    expect(standIn).toBeInstanceOf(Tool);
    expect(Object.getPrototypeOf(standIn)).toBe(Tool.prototype);
  });

  it('writes, defines and deletes on the original: state set through the stand-in is the original’s', () => {
    const tool = new Tool('x');
    const standIn = forwardingObject(tool, new Map([['run', () => 'replaced']]));
    standIn.calls++;
    Object.defineProperty(standIn, 'extra', { value: 1, enumerable: true, configurable: true, writable: true });
    expect(tool.calls).toBe(1);
    expect((tool as unknown as { extra: number }).extra).toBe(1);
    delete (standIn as unknown as { extra?: number }).extra;
    expect('extra' in tool).toBe(false);
  });

  it('enumerates the original’s keys plus the replaced ones, so a spread or JSON sees the replacement', () => {
    const options = Object.assign(Object.create({ model: 'inherited' }) as object, { prompt: 'hi' });
    const standIn = forwardingObject(options, new Map([['tools', { a: 1 }]])) as Record<string, unknown>;
    expect(standIn.model).toBe('inherited');
    expect({ ...standIn }).toEqual({ prompt: 'hi', tools: { a: 1 } });
    expect(JSON.parse(JSON.stringify(standIn))).toEqual({ prompt: 'hi', tools: { a: 1 } });
    expect(Object.keys(options)).toEqual(['prompt']);
  });

  it('stands for a frozen original, the replaced property non-configurable and read-only on it', () => {
    const frozen = Object.freeze({ name: 'weather', invoke: () => 'original' });
    const standIn = forwardingObject(frozen, new Map([['invoke', () => 'replaced']]));
    expect(standIn.invoke()).toBe('replaced');
    expect(standIn.name).toBe('weather');
    expect(Object.getOwnPropertyDescriptor(standIn, 'invoke')?.value()).toBe('replaced');
    expect(Object.keys(standIn)).toEqual(['name', 'invoke']);
  });

  it('keeps a replaced key that was only inherited, and a non-enumerable one stays non-enumerable', () => {
    const original = Object.create({ execute: () => 'inherited' }) as { execute: () => string };
    Object.defineProperty(original, 'hidden', { value: 1, enumerable: false });
    const standIn = forwardingObject(
      original,
      new Map<string, unknown>([
        ['execute', () => 'replaced'],
        ['hidden', 2],
      ]),
    );
    expect(standIn.execute()).toBe('replaced');
    expect(Object.hasOwn(standIn, 'execute')).toBe(true);
    expect((standIn as unknown as { hidden: number }).hidden).toBe(2);
    expect(Object.keys(standIn)).toEqual(['execute']);
  });

  it('enumerates a replaced class method as the class does (not at all): a spread has the original’s keys', () => {
    const tool = new Tool('x');
    const standIn = forwardingObject(tool, new Map([['run', () => 'replaced']]));
    expect(Object.hasOwn(standIn, 'run')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(standIn, 'run')?.enumerable).toBe(false);
    expect({ ...standIn }).toEqual({ ...tool });
    expect(Object.keys(standIn)).toEqual(['calls']);
  });
});
