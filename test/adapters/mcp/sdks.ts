import { Client as Client2, InMemoryTransport as InMemoryTransport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransport1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as Server1 } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  UrlElicitationRequiredError as UrlElicitationRequired1,
} from '@modelcontextprotocol/sdk/types.js';
import {
  McpServer as McpServer2,
  ProtocolError,
  Server as Server2,
  UrlElicitationRequiredError as UrlElicitationRequired2,
} from '@modelcontextprotocol/server';

/*
 * The two MCP SDK lines, side by side, so that one test file runs against both with the real
 * clients and servers: `@modelcontextprotocol/sdk` 1.x and the 2.x split packages
 * (`@modelcontextprotocol/server` + `@modelcontextprotocol/client`). Typed loosely (the lines'
 * types differ); `instrumentServer`/`instrumentClient` take either at run time.
 */

export interface TestServer {
  registerTool(name: string, config: Record<string, unknown>, handler: (...args: never[]) => unknown): unknown;
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface TestClient {
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    ...rest: unknown[]
  ): Promise<Record<string, unknown>>;
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

/** A low-level `Server` of either line, with the tools capability. */
export interface LowLevelServer {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
  readonly transport?: unknown;
}

/** What a low-level server's `tools/call` handler is handed: the request, and 1.x `extra` / 2.x `ctx`. */
export type ToolsCallHandler = (
  request: { params: { name: string; arguments?: Record<string, unknown> } },
  extra: unknown,
) => Promise<unknown>;

export interface SdkLine {
  readonly name: '1.x' | '2.x';
  newServer(): TestServer;
  /** A low-level `Server` (no McpServer), as a server written on `setRequestHandler` makes it. */
  newLowLevelServer(): LowLevelServer;
  /** Sets the low-level server's `tools/call` handler (1.x: by `CallToolRequestSchema`, 2.x: by method). */
  onToolsCall(server: LowLevelServer, handler: ToolsCallHandler): void;
  /** Sets its `tools/list` handler, answering `names`, or the page `list` gives for the request's cursor. */
  onToolsList(server: LowLevelServer, list: ToolsList): void;
  /** The error a handler throws to answer with JSON-RPC `code` (1.x `McpError`, 2.x `ProtocolError`). */
  protocolError(code: number, message: string): Error;
  newClient(): TestClient;
  linkedPair(): [unknown, unknown];
  /** The one error McpServer answers with a JSON-RPC error when a tool throws it (code -32042). */
  urlElicitationRequired(message: string): Error;
}

const ELICITATION = { mode: 'url', elicitationId: 'e-1', url: 'https://example.com/consent', message: 'consent' };

export const SDK_LINES: readonly SdkLine[] = [
  {
    name: '1.x',
    newServer: () => new McpServer1({ name: 'weather', version: '1.0.0' }) as unknown as TestServer,
    newLowLevelServer: () => new Server1({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} } }),
    onToolsCall: (server, handler) => (server as Server1).setRequestHandler(CallToolRequestSchema, handler as never),
    onToolsList: (server, list) =>
      (server as Server1).setRequestHandler(ListToolsRequestSchema, async (request) => answerList(list, request)),
    protocolError: (code, message) => new McpError(code, message),
    newClient: () => new Client1({ name: 'test-client', version: '1.0.0' }) as unknown as TestClient,
    linkedPair: () => InMemoryTransport1.createLinkedPair(),
    urlElicitationRequired: (message) => new UrlElicitationRequired1([ELICITATION as never], message),
  },
  {
    name: '2.x',
    newServer: () => new McpServer2({ name: 'weather', version: '1.0.0' }) as unknown as TestServer,
    newLowLevelServer: () => new Server2({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} } }),
    onToolsCall: (server, handler) => (server as Server2).setRequestHandler('tools/call', handler as never),
    onToolsList: (server, list) =>
      (server as Server2).setRequestHandler('tools/list', async (request) => answerList(list, request)),
    protocolError: (code, message) => new ProtocolError(code, message),
    newClient: () => new Client2({ name: 'test-client', version: '1.0.0' }) as unknown as TestClient,
    linkedPair: () => InMemoryTransport2.createLinkedPair(),
    urlElicitationRequired: (message) => new UrlElicitationRequired2([ELICITATION as never], message),
  },
];

/** A `tools/list` answer: the names, or a page of them and the cursor of the next. */
export type ToolsList =
  | readonly string[]
  | ((cursor: string | undefined) => { readonly names: readonly string[]; readonly nextCursor?: string });

function answerList(list: ToolsList, request: { params?: { cursor?: string } }) {
  const page = typeof list === 'function' ? list(request.params?.cursor) : { names: list };
  return { tools: listed(page.names), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
}

function listed(names: readonly string[]) {
  return names.map((name) => ({ name, inputSchema: { type: 'object' as const } }));
}

/** A real client of `sdk` connected to `server` over the SDK's in-memory transport. */
export async function connectLine(sdk: SdkLine, server: TestServer | LowLevelServer, client = sdk.newClient()) {
  const [clientTransport, serverTransport] = sdk.linkedPair();
  // the JSON-RPC ids and _meta of the tools/call requests the client sends
  const sent: { id: string; meta: unknown }[] = [];
  // every request and notification the client sends: its method and _meta as JSON (as on a wire)
  const messages: { method: string; meta: Record<string, unknown> | undefined }[] = [];
  const transport = clientTransport as { send: (message: Record<string, unknown>, options?: unknown) => Promise<void> };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
    if (message.method === 'tools/call' && 'id' in message) sent.push({ id: String(message.id), meta });
    if (typeof message.method === 'string') {
      messages.push({
        method: message.method,
        meta: meta === undefined ? undefined : JSON.parse(JSON.stringify(meta)),
      });
    }
    return send(message, options);
  };
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { client, sent, messages };
}
