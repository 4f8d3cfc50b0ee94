import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { instrumentClient, McpToolError } from 'otel-tool-calls/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';
import { connect } from './connect.js';

const report = (error: unknown) => `reported: ${(error as Error).message}`;

/** A plain, uninstrumented server: the client side is under test here. */
function server() {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
  mcp.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [{ type: 'text', text: `sunny in ${city}` }],
  }));
  mcp.registerTool('refuse', { inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [{ type: 'text', text: `no forecast for ${city}` }],
    isError: true,
  }));
  return mcp;
}

async function connectedClient() {
  const { client } = await connect(server());
  return client;
}

describe('instrumentClient', () => {
  it('reports a successful callTool with its name, arguments, signal, framework and MCP attributes', async () => {
    const listener = recordingListener();
    const client = instrumentClient(await connectedClient(), listener);
    const controller = new AbortController();

    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } }, undefined, {
      signal: controller.signal,
    });

    expect(result).toEqual({ content: [{ type: 'text', text: 'sunny in Oslo' }] });
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(listener.events[0]).toMatchObject({
      kind: 'beforeCall',
      toolName: 'weather',
      toolInput: { city: 'Oslo' },
      call: {
        framework: 'mcp',
        signal: controller.signal,
        attributes: { 'gen_ai.tool.type': 'extension', 'mcp.method.name': 'tools/call' },
      },
    });
    expect(listener.events[1]).toMatchObject({ kind: 'afterCall', result });
  });

  it('rethrown: an isError result is an McpToolError for the listener and returned to the caller unchanged', async () => {
    const listener = recordingListener();
    const client = instrumentClient(await connectedClient(), listener);

    const result = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'no forecast for Oslo' }], isError: true });
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    const error = (listener.events[1] as { error: McpToolError }).error;
    expect(error).toBeInstanceOf(McpToolError);
    expect(error.code).toBe('tool_error');
    expect(error.result).toBe(result);
  });

  it('reported: an isError result is replaced by the listener text', async () => {
    const client = instrumentClient(await connectedClient(), recordingListener(report));

    const result = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'reported: no forecast for Oslo' }], isError: true });
  });

  it('rethrown: a failing request rejects with the original error, the one the listener saw', async () => {
    const listener = recordingListener();
    const client = instrumentClient(await connectedClient(), listener);
    await client.close();

    const thrown = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } }).catch((error) => error);

    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe('Not connected');
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect((listener.events[1] as { error: unknown }).error).toBe(thrown);
  });

  it('reported: a failing request resolves to the listener text as an isError result', async () => {
    const client = instrumentClient(await connectedClient(), recordingListener(report));
    await client.close();

    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'reported: Not connected' }], isError: true });
  });

  it('returns the same client, and instrumenting it twice reports each call once', async () => {
    const listener = recordingListener();
    const client = await connectedClient();
    expect(instrumentClient(client, listener)).toBe(client);
    expect(instrumentClient(client, listener)).toBe(client);
    expect(instrumentClient(client, recordingListener())).toBe(client);

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('throws a TypeError naming the argument that is not a client or not a listener', async () => {
    expect(() => instrumentClient({} as Client, recordingListener())).toThrow(
      new TypeError('instrumentClient: `client` must be an MCP Client, got object'),
    );
    expect(() => instrumentClient(undefined as unknown as Client, recordingListener())).toThrow(/`client`/);
    const client = await connectedClient();
    expect(() => instrumentClient(client, 'listener' as never)).toThrow(/`listener`/);
  });
});
