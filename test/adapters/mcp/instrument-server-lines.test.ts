import { instrumentServer } from 'otel-tool-calls/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';
import { connectLine, SDK_LINES } from './sdks.js';

/*
 * What instrumentServer guarantees, on each SDK line with its real McpServer and Client: 1.x calls a
 * tool's `handler`, 2.x the `executor` it makes from it, and the adapter observes the one called.
 */

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

interface Registered {
  update(updates: Record<string, unknown>): void;
}

describe.each(SDK_LINES)('instrumentServer on SDK $name', (sdk) => {
  it('observes tools registered before and after instrumentServer, each call once, with its input and signal', async () => {
    const listener = recordingListener();
    const server = sdk.newServer();
    server.registerTool('before', { inputSchema: { city: z.string() } }, async ({ city }: { city: string }) =>
      text(`before ${city}`),
    );
    instrumentServer(server as never, listener);
    instrumentServer(server as never, listener); // again: a no-op
    let handlerSignal: unknown;
    server.registerTool('after', {}, async (ctx: { signal?: AbortSignal; mcpReq?: { signal?: AbortSignal } }) => {
      handlerSignal = ctx.mcpReq?.signal ?? ctx.signal;
      return text('after');
    });
    const { client, sent } = await connectLine(sdk, server);

    expect(await client.callTool({ name: 'before', arguments: { city: 'Oslo' } })).toMatchObject(text('before Oslo'));
    expect(await client.callTool({ name: 'after', arguments: {} })).toMatchObject(text('after'));

    expect(listener.kinds()).toEqual([
      'beforeCall',
      'afterCall',
      'afterCompletion',
      'beforeCall',
      'afterCall',
      'afterCompletion',
    ]);
    const [first, , , second] = listener.events;
    expect(first).toMatchObject({ toolName: 'before', toolInput: { city: 'Oslo' } });
    expect(second).toMatchObject({ toolName: 'after', toolInput: undefined });
    const calls = listener.events.flatMap((event) => (event.kind === 'beforeCall' ? [event.call] : []));
    expect(calls.map((call) => call.remote?.requestId)).toEqual(sent.map((request) => request.id));
    expect(handlerSignal).toBeInstanceOf(AbortSignal);
    expect(calls[1]?.signal).toBe(handlerSignal);
  });

  it('keeps observing a tool whose callback is replaced with update(), under its new name after a rename', async () => {
    const listener = recordingListener();
    const server = sdk.newServer();
    instrumentServer(server as never, listener);
    const registered = server.registerTool('v1', { inputSchema: { city: z.string() } }, async () =>
      text('v1'),
    ) as Registered;
    registered.update({ name: 'v2', callback: async () => text('v2') });
    const { client } = await connectLine(sdk, server);

    expect(await client.callTool({ name: 'v2', arguments: { city: 'Oslo' } })).toMatchObject(text('v2'));

    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(listener.events[0]).toMatchObject({ toolName: 'v2' });
  });

  it('a throwing tool reaches onError as the original error; the client gets what the SDK makes of it', async () => {
    const listener = recordingListener();
    const server = sdk.newServer();
    instrumentServer(server as never, listener);
    const boom = new Error('boom');
    server.registerTool('explode', {}, async () => {
      throw boom;
    });
    const { client } = await connectLine(sdk, server);

    const result = await client.callTool({ name: 'explode', arguments: {} });

    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('boom') }] });
    expect(listener.events[1]).toMatchObject({ kind: 'onError', error: boom });
  });
});
