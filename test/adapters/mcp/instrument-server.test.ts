import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { instrumentServer, McpToolError } from 'otel-tool-calls/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';
import { connect } from './connect.js';

const report = (error: unknown) => `reported: ${(error as Error).message}`;

function weatherServer() {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool(
    'weather',
    { description: 'Current weather of a city', inputSchema: { city: z.string() } },
    async ({ city }) => ({ content: [{ type: 'text', text: `sunny in ${city}` }] }),
  );
  server.registerTool('explode', { inputSchema: { city: z.string() } }, async () => {
    throw new Error('boom');
  });
  server.registerTool('refuse', { inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [
      { type: 'text', text: `no forecast for ${city}` },
      { type: 'text', text: 'try later' },
    ],
    isError: true,
    _meta: { retryAfterSeconds: 30 },
  }));
  return server;
}

describe('instrumentServer', () => {
  it('reports a successful call with the JSON-RPC request id, the description, the input and the result', async () => {
    const listener = recordingListener();
    const { client, toolCallRequestIds } = await connect(instrumentServer(weatherServer(), listener));

    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'sunny in Oslo' }] });
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    const before = listener.events[0];
    if (before?.kind !== 'beforeCall') throw new Error('no beforeCall');
    expect(before.toolName).toBe('weather');
    expect(before.toolInput).toEqual({ city: 'Oslo' });
    // the JSON-RPC id is the request's (remote.requestId), not the model's tool call id
    expect(before.call.toolCallId).toBeUndefined();
    expect(before.call.remote).toMatchObject({ protocol: 'mcp', side: 'server', requestId: toolCallRequestIds[0] });
    expect(before.call.framework).toBe('mcp');
    expect(before.call.toolDefinition.description).toBe('Current weather of a city');
    // the version the server's initialize answered (1.x keeps none itself)
    expect(before.call.attributes).toEqual({
      'gen_ai.tool.type': 'extension',
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(listener.events[1]).toMatchObject({ kind: 'afterCall', result });
  });

  it('passes the handler its own extra.signal and shows the listener the same signal', async () => {
    const listener = recordingListener();
    const server = instrumentServer(new McpServer({ name: 's', version: '1.0.0' }), listener);
    let handlerSignal: AbortSignal | undefined;
    server.registerTool('probe', {}, async (extra) => {
      handlerSignal = extra.signal;
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    const { client } = await connect(server);

    await client.callTool({ name: 'probe', arguments: {} });

    expect(handlerSignal).toBeInstanceOf(AbortSignal);
    expect(listener.events[0]).toMatchObject({ kind: 'beforeCall', toolInput: undefined });
    expect((listener.events[0] as { call: { signal?: AbortSignal } }).call.signal).toBe(handlerSignal);
  });

  it('rethrown: a throwing handler reaches onError as the original error and the client gets what the SDK makes of it', async () => {
    const listener = recordingListener();
    const { client } = await connect(instrumentServer(weatherServer(), listener));

    const result = await client.callTool({ name: 'explode', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'boom' }], isError: true });
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    const onError = listener.events[1] as { error: unknown };
    expect(onError.error).toBeInstanceOf(Error);
    expect(onError.error).not.toBeInstanceOf(McpToolError);
    expect((onError.error as Error).message).toBe('boom');
  });

  it('reported: a throwing handler gives the client the listener text as an isError result', async () => {
    const { client } = await connect(instrumentServer(weatherServer(), recordingListener(report)));

    const result = await client.callTool({ name: 'explode', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'reported: boom' }], isError: true });
  });

  it('an isError result is an McpToolError with code tool_error, its text as message and the result kept', async () => {
    const listener = recordingListener();
    const { client } = await connect(instrumentServer(weatherServer(), listener));

    const result = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    const error = (listener.events[1] as { error: unknown }).error as McpToolError;
    expect(error).toBeInstanceOf(McpToolError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('McpToolError');
    expect(error.code).toBe('tool_error');
    expect(error.toolName).toBe('refuse');
    expect(error.message).toBe('no forecast for Oslo\ntry later');
    // rethrown: the original result reaches the client unchanged
    expect(result).toEqual(error.result);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'no forecast for Oslo' },
        { type: 'text', text: 'try later' },
      ],
      isError: true,
      _meta: { retryAfterSeconds: 30 },
    });
  });

  it('reported: an isError result is replaced by the listener text', async () => {
    const { client } = await connect(instrumentServer(weatherServer(), recordingListener(report)));

    const result = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    expect(result).toEqual({
      content: [{ type: 'text', text: 'reported: no forecast for Oslo\ntry later' }],
      isError: true,
    });
  });

  it('observes tools registered after instrumentServer, through tool() and registerTool()', async () => {
    const listener = recordingListener();
    const server = instrumentServer(new McpServer({ name: 's', version: '1.0.0' }), listener);
    server.tool('legacy', 'Registered with tool()', { n: z.number() }, async ({ n }) => ({
      content: [{ type: 'text', text: String(n * 2) }],
    }));
    server.registerTool('modern', { description: 'Registered with registerTool()' }, async () => ({
      content: [{ type: 'text', text: 'modern' }],
    }));
    const { client } = await connect(server);

    expect(await client.callTool({ name: 'legacy', arguments: { n: 21 } })).toEqual({
      content: [{ type: 'text', text: '42' }],
    });
    await client.callTool({ name: 'modern', arguments: {} });

    const befores = listener.events.filter((event) => event.kind === 'beforeCall');
    expect(befores.map((event) => [event.toolName, event.call.toolDefinition.description])).toEqual([
      ['legacy', 'Registered with tool()'],
      ['modern', 'Registered with registerTool()'],
    ]);
    expect(befores[0]?.toolInput).toEqual({ n: 21 });
  });

  it('keeps observing a tool whose callback is replaced with update(), under its new name after a rename', async () => {
    const listener = recordingListener();
    const server = instrumentServer(new McpServer({ name: 's', version: '1.0.0' }), listener);
    const registered = server.registerTool('v1', { inputSchema: { city: z.string() } }, async () => ({
      content: [{ type: 'text', text: 'v1' }],
    }));
    registered.update({
      name: 'v2',
      description: 'Second version',
      callback: async () => ({ content: [{ type: 'text', text: 'v2' }] }),
    });
    const { client } = await connect(server);

    const result = await client.callTool({ name: 'v2', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'v2' }] });
    expect(listener.events[0]).toMatchObject({ kind: 'beforeCall', toolName: 'v2' });
    expect((listener.events[0] as { call: { toolDefinition: unknown } }).call.toolDefinition).toMatchObject({
      name: 'v2',
      description: 'Second version',
    });
  });

  it("a tool's definition and metadata as they are at each call: update() between two calls changes the second's", async () => {
    const listener = recordingListener();
    const server = instrumentServer(new McpServer({ name: 's', version: '1.0.0' }), listener);
    const registered = server.registerTool('weather', { description: 'First', title: 'Weather' }, async () => ({
      content: [{ type: 'text', text: 'sunny' }],
    }));
    const { client } = await connect(server);

    await client.callTool({ name: 'weather', arguments: {} });
    await client.callTool({ name: 'weather', arguments: {} });
    registered.update({ description: 'Second', title: 'Forecast' });
    await client.callTool({ name: 'weather', arguments: {} });

    const told = listener.events
      .filter((event) => event.kind === 'beforeCall')
      .map((event) => [event.call.toolDefinition.description, event.call.toolMetadata?.title]);
    expect(told).toEqual([
      ['First', 'Weather'],
      ['First', 'Weather'],
      ['Second', 'Forecast'],
    ]);
  });

  it('returns the same server, and instrumenting it twice reports each call once', async () => {
    const listener = recordingListener();
    const server = weatherServer();
    expect(instrumentServer(server, listener)).toBe(server);
    expect(instrumentServer(server, listener)).toBe(server);
    expect(instrumentServer(server, recordingListener())).toBe(server);
    server.registerTool('late', {}, async () => ({ content: [{ type: 'text', text: 'late' }] }));
    const { client } = await connect(server);

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    await client.callTool({ name: 'late', arguments: {} });

    expect(listener.kinds()).toEqual([
      'beforeCall',
      'afterCall',
      'afterCompletion',
      'beforeCall',
      'afterCall',
      'afterCompletion',
    ]);
  });

  it('gives each concurrent call its own request id and context', async () => {
    const listener = recordingListener();
    const { client, toolCallRequestIds } = await connect(instrumentServer(weatherServer(), listener));

    const cities = ['Oslo', 'Lima', 'Pune', 'Quito', 'Accra'];
    const results = await Promise.all(cities.map((city) => client.callTool({ name: 'weather', arguments: { city } })));

    expect(results.map((result) => (result.content as { text: string }[])[0]?.text)).toEqual(
      cities.map((city) => `sunny in ${city}`),
    );
    const befores = listener.events.filter((event) => event.kind === 'beforeCall');
    expect(befores.map((event) => event.call.remote?.requestId).sort()).toEqual([...toolCallRequestIds].sort());
    expect(new Set(toolCallRequestIds).size).toBe(cities.length);
  });

  it('throws a TypeError naming the argument that is not a server or not a listener', () => {
    expect(() => instrumentServer({} as McpServer, recordingListener())).toThrow(
      new TypeError('instrumentServer: `server` must be an McpServer or a low-level MCP Server, got object'),
    );
    expect(() => instrumentServer(null as unknown as McpServer, recordingListener())).toThrow(/`server`/);
    expect(() => instrumentServer(weatherServer(), null as never)).toThrow(TypeError);
    expect(() => instrumentServer(weatherServer(), null as never)).toThrow(/`listener`/);
    expect(() => instrumentServer(weatherServer(), { onError: 'no' } as never)).toThrow(/`listener.onError`/);
  });
});
