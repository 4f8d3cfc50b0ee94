import { Client as Client2, InMemoryTransport as InMemoryTransport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransport1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServer2 } from '@modelcontextprotocol/server';
import { SpanKind } from '@opentelemetry/api';
import { ToolCallListeners } from 'otel-tool-calls';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

/*
 * An McpServer created with `debouncedNotificationMethods` merges the list_changed notifications of a
 * burst of changes (tools, resources, prompts registered at once) into one per kind: the SDK merges a
 * notification only when it has no params. The trace context this package adds goes in
 * `params._meta`, so a notification with it is never merged: it is sent as it is (what the SDK's own
 * suite, mcpserver:list-changed:debounce, checks). With the real client and server of each SDK line.
 */

const telemetry = useTestTelemetry();

const KINDS = ['tools', 'resources', 'prompts'] as const;
type Kind = (typeof KINDS)[number];
const DEBOUNCED = KINDS.map((kind) => `notifications/${kind}/list_changed`);

interface Registering {
  registerTool(name: string, config: object, handler: () => unknown): unknown;
  registerResource(name: string, uri: string, config: object, read: () => unknown): unknown;
  registerPrompt(name: string, config: object, get: () => unknown): unknown;
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

interface NotifiedClient {
  connect(transport: unknown): Promise<void>;
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

const LINES = [
  {
    name: '1.x',
    server: () => new McpServer1({ name: 's', version: '0' }, { debouncedNotificationMethods: DEBOUNCED }),
    client: (counts: Record<Kind, number>) => {
      const client = new Client1({ name: 'c', version: '0' });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void counts.tools++);
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void counts.resources++);
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => void counts.prompts++);
      return client;
    },
    linkedPair: () => InMemoryTransport1.createLinkedPair(),
  },
  {
    name: '2.x',
    server: () => new McpServer2({ name: 's', version: '0' }, { debouncedNotificationMethods: DEBOUNCED }),
    client: (counts: Record<Kind, number>) => {
      const client = new Client2({ name: 'c', version: '0' });
      for (const kind of KINDS) {
        client.setNotificationHandler(`notifications/${kind}/list_changed`, () => void counts[kind]++);
      }
      return client;
    },
    linkedPair: () => InMemoryTransport2.createLinkedPair(),
  },
] as const;

type Line = (typeof LINES)[number];

/** A server with one of each registered before `connect` (so that its capabilities and handlers are set). */
function seededServer(line: Line): Registering {
  const server = line.server() as unknown as Registering;
  server.registerTool('seed', { inputSchema: { city: z.string() } }, () => ({ content: [] }));
  server.registerResource('seed', 'test://seed', {}, () => ({ contents: [] }));
  server.registerPrompt('seed', { description: 'seed' }, () => ({ messages: [] }));
  return server;
}

/**
 * `server` and a client of `line` connected, each observed by `listener`, the server's transport
 * counting the list_changed messages it puts on the wire. The counts start after `connect`.
 */
async function connected(line: Line, listener: Parameters<typeof instrumentServer>[1]) {
  const server = instrumentServer(seededServer(line) as never, listener) as unknown as Registering;
  const received: Record<Kind, number> = { tools: 0, resources: 0, prompts: 0 };
  const client = instrumentClient(line.client(received) as never, listener) as unknown as NotifiedClient;
  const [clientTransport, serverTransport] = line.linkedPair() as [unknown, { send: (message: unknown) => unknown }];
  const onWire: string[] = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message: unknown, ...rest: unknown[]) => {
    const method = (message as { method?: unknown }).method;
    if (typeof method === 'string' && DEBOUNCED.includes(method)) onWire.push(method);
    return (send as (...args: unknown[]) => unknown)(message, ...rest);
  };
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  for (const kind of KINDS) received[kind] = 0;
  onWire.length = 0;
  return { server, client, received, onWire };
}

/** Three of each kind at once: a burst the SDK merges into one list_changed per kind. */
function registerBurst(server: Registering): void {
  for (const name of ['a', 'b', 'c']) {
    server.registerTool(name, { inputSchema: { city: z.string() } }, () => ({ content: [] }));
    server.registerResource(name, `test://burst/${name}`, {}, () => ({ contents: [] }));
    server.registerPrompt(name, { description: name }, () => ({ messages: [] }));
  }
}

describe.each(LINES)('debounced MCP notifications, SDK $name', (line) => {
  const listeners = [
    ['an OpenTelemetry listener', () => telemetry.listener()],
    ['a listener of the app’s own', () => ToolCallListeners.composite({ beforeCall: () => undefined })],
  ] as const;

  it.each(listeners)(
    'debounced notifications still merge: three tools, resources and prompts registered at once (inside a span) on an instrumented McpServer with debouncedNotificationMethods reach an instrumented client as one list_changed of each kind, not three (%s)',
    async (_name, listener) => {
      const { server, client, received, onWire } = await connected(line, listener());

      // inside a span, as from a request handler: a context to propagate, with any listener
      await telemetry.withParent(() => registerBurst(server));
      await vi.waitFor(() => expect(KINDS.every((kind) => received[kind] >= 1)).toBe(true), { timeout: 10_000 });
      await client.ping(); // a round trip after the burst: anything sent late has arrived

      expect(received).toEqual({ tools: 1, resources: 1, prompts: 1 });
      expect(onWire.sort()).toEqual([...DEBOUNCED].sort());
      await client.close();
    },
    30_000,
  );

  it('a merged notification is one span on each side, as on the wire: one CLIENT span in the server (the call that sent it) and one SERVER span in the client per kind', async () => {
    const { server, client, received } = await connected(line, telemetry.listener());

    registerBurst(server);
    await vi.waitFor(() => expect(KINDS.every((kind) => received[kind] >= 1)).toBe(true), { timeout: 10_000 });
    await client.ping();

    for (const method of DEBOUNCED) {
      const kinds = telemetry
        .spans()
        .filter((span) => span.name === method)
        .map((span) => SpanKind[span.kind]);
      expect([method, kinds.sort()]).toEqual([method, ['CLIENT', 'SERVER']]);
    }
    await client.close();
  }, 30_000);

  it('a notification the SDK does not merge still carries the trace context: list_changed of a server without debouncedNotificationMethods', async () => {
    const plain =
      line.name === '1.x' ? new McpServer1({ name: 's', version: '0' }) : new McpServer2({ name: 's', version: '0' });
    const server = instrumentServer(plain as never, telemetry.listener()) as unknown as Registering;
    server.registerTool('seed', {}, () => ({ content: [] }));
    const received: Record<Kind, number> = { tools: 0, resources: 0, prompts: 0 };
    const client = instrumentClient(line.client(received) as never, telemetry.listener()) as unknown as NotifiedClient;
    const [clientTransport, serverTransport] = line.linkedPair() as [unknown, { send: (message: unknown) => unknown }];
    const metas: unknown[] = [];
    const send = serverTransport.send.bind(serverTransport);
    serverTransport.send = (message: unknown, ...rest: unknown[]) => {
      if ((message as { method?: unknown }).method === 'notifications/tools/list_changed') {
        metas.push(JSON.parse(JSON.stringify((message as { params?: { _meta?: unknown } }).params?._meta ?? null)));
      }
      return (send as (...args: unknown[]) => unknown)(message, ...rest);
    };
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);

    server.registerTool('late', {}, () => ({ content: [] }));
    await vi.waitFor(() => expect(received.tools).toBe(1), { timeout: 10_000 });

    expect(metas).toEqual([{ traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/) }]);
    const sent = telemetry
      .spans()
      .find((span) => span.name === 'notifications/tools/list_changed' && span.kind === SpanKind.CLIENT);
    const handled = telemetry
      .spans()
      .find((span) => span.name === 'notifications/tools/list_changed' && span.kind === SpanKind.SERVER);
    expect(handled?.parentSpanContext?.spanId).toBe(sent?.spanContext().spanId);
    await client.close();
  }, 30_000);
});
