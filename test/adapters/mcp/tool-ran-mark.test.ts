import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { markToolRan } from '../../../src/adapters/mcp/rejected-requests.js';
import { isMarkedRequest as toolRanFor } from '../../../src/adapters/mcp/server-seam.js';

/*
 * The mark that tells the refused-call watcher a tool ran for a request (server-seam.ts): a
 * private field of the package's stamped on the request object McpServer hands the tool, invisible
 * to the tool's own code; a WeakSet entry for an object the engine will not stamp.
 */
describe('the mark of a request a tool ran for', () => {
  it('a plain request object: marked, and the mark is neither listed nor copied', () => {
    const extra = { requestId: 1, sessionId: 's' };
    const shown = inspect(extra, { showHidden: true });
    expect(toolRanFor(extra)).toBe(false);
    markToolRan([{ city: 'Oslo' }, extra]);

    expect(toolRanFor(extra)).toBe(true);
    expect(Object.keys(extra)).toEqual(['requestId', 'sessionId']);
    expect(Reflect.ownKeys(extra)).toEqual(['requestId', 'sessionId']);
    expect(inspect(extra, { showHidden: true })).toBe(shown);
    expect(toolRanFor({ ...extra })).toBe(false);
    expect(JSON.stringify(extra)).toBe('{"requestId":1,"sessionId":"s"}');
  });

  it('a request object marked twice (a tool that runs twice for one request) stays marked, nothing throws', () => {
    const extra = { requestId: 5 };
    markToolRan([extra]);
    expect(() => markToolRan([extra])).not.toThrow();
    expect(toolRanFor(extra)).toBe(true);
  });

  it('a frozen request object, or a Proxy that refuses the property: marked all the same', () => {
    const frozen = Object.freeze({ requestId: 2 });
    const refusing = new Proxy({ requestId: 3 }, { defineProperty: () => false });
    const throwing = new Proxy(
      { requestId: 4 },
      {
        defineProperty: () => {
          throw new Error('no');
        },
        get: () => {
          throw new Error('no');
        },
      },
    );
    for (const extra of [frozen, refusing, throwing]) {
      expect(toolRanFor(extra)).toBe(false);
      markToolRan([extra]);
      expect(toolRanFor(extra)).toBe(true);
    }
  });

  it('no request object among the arguments: nothing is marked, nothing throws', () => {
    expect(() => markToolRan([])).not.toThrow();
    expect(() => markToolRan([{ city: 'Oslo' }, undefined])).not.toThrow();
  });
});
