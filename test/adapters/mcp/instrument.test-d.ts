import type { Client as Client2 } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer as McpServer2, Server as Server2 } from '@modelcontextprotocol/server';
import type { ToolCallListener } from 'otel-tool-calls';
import { instrumentClient, instrumentServer, type McpToolError } from 'otel-tool-calls/mcp';
import { describe, expectTypeOf, it } from 'vitest';

declare const server: McpServer;
declare const client: Client;
declare const server2: McpServer2;
declare const client2: Client2;
declare const lowLevel: Server;
declare const lowLevel2: Server2;
declare const listener: ToolCallListener<{ startedAt: number }>;

class MyServer extends (class {} as unknown as typeof import('@modelcontextprotocol/sdk/server/mcp.js').McpServer) {
  readonly extra = 1;
}

describe('otel-tool-calls/mcp types', () => {
  it('instrumentServer returns the same server type, subclasses included', () => {
    expectTypeOf(instrumentServer(server, listener)).toEqualTypeOf<McpServer>();
    expectTypeOf(instrumentServer(new MyServer({ name: 's', version: '1' }), listener)).toEqualTypeOf<MyServer>();
  });

  it('takes a low-level Server of either line (fastmcp hands out 1.x ones) and returns its type', () => {
    expectTypeOf(instrumentServer(lowLevel, listener)).toEqualTypeOf<Server>();
    expectTypeOf(instrumentServer(lowLevel2, listener)).toEqualTypeOf<Server2>();
  });

  it('instrumentClient returns the same client type and callTool keeps its signature', () => {
    expectTypeOf(instrumentClient(client, listener)).toEqualTypeOf<Client>();
    expectTypeOf(instrumentClient(client, listener).callTool).toEqualTypeOf<Client['callTool']>();
  });

  it('takes the 2.x McpServer and Client too, and returns their types', () => {
    expectTypeOf(instrumentServer(server2, listener)).toEqualTypeOf<McpServer2>();
    expectTypeOf(instrumentClient(client2, listener)).toEqualTypeOf<Client2>();
    expectTypeOf(instrumentClient(client2, listener).callTool).toEqualTypeOf<Client2['callTool']>();
  });

  it('McpToolError is an Error with code tool_error and the tool result', () => {
    expectTypeOf<McpToolError>().toExtend<Error>();
    expectTypeOf<McpToolError['code']>().toEqualTypeOf<'tool_error'>();
    expectTypeOf<McpToolError['result']>().toEqualTypeOf<CallToolResult>();
  });

  it('rejects what is not a server or a listener', () => {
    // @ts-expect-error a client is not a server
    instrumentServer(client, listener);
    // @ts-expect-error a listener is an object of optional methods
    instrumentClient(client, 'listener');
  });
});
