import { describe, expect, it } from 'vitest';
import { standInCache } from '../../src/internal/stand-in-cache.js';

describe('standInCache', () => {
  it('makes one stand-in per original and listener, and a new one for a new listener', () => {
    const standIns = standInCache<object, object>();
    const tool = {};
    const [first, second] = [{}, {}];
    let made = 0;
    const make = () => ({ made: ++made });
    const once = standIns(first, tool, make);
    expect(standIns(first, tool, make)).toBe(once);
    expect(standIns(second, tool, make)).not.toBe(once);
    expect(made).toBe(2);
  });
});
