import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onRequestHandlers, onUnhandledRequests, requestHandlersOf } from '../../../src/adapters/mcp/protocol-seam.js';
import { connectLine, SDK_LINES, type TestClient, type TestServer } from './sdks.js';

/*
 * The observers of a low-level Server subscribe to protocol-seam.ts instead of patching it in an
 * order: each wraps every handler once, those set before it came and after, whoever came first.
 */

interface RawClient extends TestClient {
  listTools(): Promise<unknown>;
  request(request: { method: string }, schema: unknown): Promise<unknown>;
}

interface ServerWithLowLevel extends TestServer {
  server: unknown;
  registerTool(name: string, config: object, handler: () => unknown): unknown;
}

/** A wrapper of `tools/list` that notes `name` in `seen` at each request. */
function noting(seen: string[], name: string) {
  return (method: unknown, handler: (this: unknown, ...args: unknown[]) => unknown) =>
    method === 'tools/list'
      ? function noted(this: unknown, ...args: unknown[]) {
          seen.push(name);
          return handler.apply(this, args);
        }
      : undefined;
}

describe.each(SDK_LINES)('the protocol seam, SDK $name', (sdk) => {
  it('a subscriber wraps the handlers set before and after it came, once each, whatever the order of subscribers', async () => {
    const server = sdk.newServer() as unknown as ServerWithLowLevel;
    const lowLevel = server.server;
    const seen: string[] = [];
    // before McpServer has a tools/list handler (it registers one with its first tool)
    expect(onRequestHandlers(lowLevel, 'early', noting(seen, 'early'))).toBe(true);
    server.registerTool('echo', { description: 'Echoes' }, () => ({ content: [{ type: 'text', text: 'x' }] }));
    onRequestHandlers(lowLevel, 'late', noting(seen, 'late'));
    // a key subscribes once
    onRequestHandlers(lowLevel, 'early', noting(seen, 'early again'));
    // a handler the seam made, stored again, is not wrapped again
    const handlers = requestHandlersOf(lowLevel) as Map<unknown, unknown>;
    handlers.set('tools/list', handlers.get('tools/list'));

    const { client } = await connectLine(sdk, server, sdk.newClient());
    await (client as RawClient).listTools();
    expect(seen).toEqual(['late', 'early']);
    await (client as RawClient).listTools();
    expect(seen).toEqual(['late', 'early', 'late', 'early']);
  });

  it('each key is told once of a request the SDK answers -32601 itself, and the answer is the SDK’s', async () => {
    const server = sdk.newServer() as unknown as ServerWithLowLevel;
    server.registerTool('echo', { description: 'Echoes' }, () => ({ content: [{ type: 'text', text: 'x' }] }));
    const told: string[] = [];
    onUnhandledRequests(server.server, 'a', (method) => told.push(`a ${method}`));
    onUnhandledRequests(server.server, 'a', (method) => told.push(`a again ${method}`));
    onUnhandledRequests(server.server, 'b', (method) => told.push(`b ${method}`));

    const { client } = await connectLine(sdk, server, sdk.newClient());
    await expect((client as RawClient).request({ method: 'prompts/list' }, z.object({}))).rejects.toMatchObject({
      code: -32601,
    });
    await (client as RawClient).listTools(); // handled: nobody told
    expect(told).toEqual(['a prompts/list', 'b prompts/list']);
  });

  it('an object without the SDK’s handler Maps subscribes nothing and throws nothing', () => {
    expect(onRequestHandlers({}, 'k', () => undefined)).toBe(false);
    expect(onRequestHandlers(null, 'k', () => undefined)).toBe(false);
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('hostile');
        },
      },
    );
    expect(onRequestHandlers(hostile, 'k', () => undefined)).toBe(false);
    expect(() => onUnhandledRequests(hostile, 'k', () => {})).not.toThrow();
  });
});
