import { Client as Client2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServer2 } from '@modelcontextprotocol/server';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient, type TestServer } from './sdks.js';

/*
 * What the server sends the client: sampling/createMessage, elicitation/create, roots/list and
 * notifications (here notifications/message), from inside a tool call. The conventions: a CLIENT
 * span on the side that sends (the server), a SERVER span on the side that handles (the client), the
 * context in the message's _meta; with the real client and server of each SDK line.
 */

const telemetry = useTestTelemetry();

interface ClientHandlers {
  sampling?: () => unknown;
  elicitation?: () => unknown;
  roots?: () => unknown;
  logged?: (data: unknown) => void;
}

/** A client of `sdk` with the handlers given (and the capabilities they need), in each line's API. */
function clientWith(sdk: SdkLine, handlers: ClientHandlers): TestClient {
  const capabilities = {
    ...(handlers.sampling && { sampling: {} }),
    ...(handlers.elicitation && { elicitation: { form: {} } }),
    ...(handlers.roots && { roots: {} }),
  };
  const info = { name: 'test-client', version: '1.0.0' };
  if (sdk.name === '1.x') {
    const client = new Client1(info, { capabilities });
    if (handlers.sampling) client.setRequestHandler(CreateMessageRequestSchema, handlers.sampling as never);
    if (handlers.elicitation) client.setRequestHandler(ElicitRequestSchema, handlers.elicitation as never);
    if (handlers.roots) client.setRequestHandler(ListRootsRequestSchema, handlers.roots as never);
    const { logged } = handlers;
    if (logged) client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => logged(note.params.data));
    return client as unknown as TestClient;
  }
  const client = new Client2(info, { capabilities }) as unknown as {
    setRequestHandler(method: string, handler: unknown): void;
    setNotificationHandler(method: string, handler: unknown): void;
  };
  if (handlers.sampling) client.setRequestHandler('sampling/createMessage', handlers.sampling);
  if (handlers.elicitation) client.setRequestHandler('elicitation/create', handlers.elicitation);
  if (handlers.roots) client.setRequestHandler('roots/list', handlers.roots);
  const { logged } = handlers;
  if (logged) {
    client.setNotificationHandler('notifications/message', (note: { params: { data: unknown } }) =>
      logged(note.params.data),
    );
  }
  return client as unknown as TestClient;
}

interface LowLevelServer {
  createMessage(params: object): Promise<{ content: { text: string } }>;
  elicitInput(params: object): Promise<{ content?: { city?: string } }>;
  listRoots(): Promise<{ roots: unknown[] }>;
  sendLoggingMessage(params: object): Promise<void>;
}

/** A server (with logging) whose tool `ask` asks the client for what `ask` says. */
function askingServer(sdk: SdkLine, ask: (server: LowLevelServer) => Promise<string>): TestServer {
  const info = { name: 'weather', version: '1.0.0' };
  const options = { capabilities: { logging: {} } };
  const mcp = (sdk.name === '1.x' ? new McpServer1(info, options) : new McpServer2(info, options)) as unknown as {
    server: LowLevelServer;
    registerTool(name: string, config: object, handler: () => unknown): void;
  };
  mcp.registerTool('ask', { description: 'Asks the client' }, async () => ({
    content: [{ type: 'text', text: await ask(mcp.server) }],
  }));
  return mcp as unknown as TestServer;
}

async function connected(sdk: SdkLine, server: TestServer, client: TestClient) {
  const listener = telemetry.listener();
  instrumentServer(server as never, listener);
  instrumentClient(client as never, listener);
  await connectLine(sdk, server, client);
  return client;
}

const one = (name: string, kind: SpanKind): ReadableSpan => {
  const found = telemetry.spans().filter((span) => span.name === name && span.kind === kind);
  expect([name, kind, found.length]).toEqual([name, kind, 1]);
  return found[0] as ReadableSpan;
};

describe.each(SDK_LINES)('MCP requests and notifications the server sends, SDK $name', (sdk) => {
  it('sampling/createMessage, elicitation/create, roots/list and a notification are a CLIENT span in the server and a SERVER span in the client, its child through _meta, inside the tool call’s trace', async () => {
    const logged: unknown[] = [];
    const client = clientWith(sdk, {
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'sunny' }, model: 'test-model' }),
      elicitation: () => ({ action: 'accept', content: { city: 'Oslo' } }),
      roots: () => ({ roots: [{ uri: 'file:///home', name: 'home' }] }),
      logged: (data) => void logged.push(data),
    });
    const server = askingServer(sdk, async (lowLevel) => {
      const sampled = await lowLevel.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'weather?' } }],
        maxTokens: 10,
      });
      const elicited = await lowLevel.elicitInput({
        message: 'Which city?',
        requestedSchema: { type: 'object', properties: { city: { type: 'string' } } },
      });
      const { roots } = await lowLevel.listRoots();
      await lowLevel.sendLoggingMessage({ level: 'info', data: 'asked' });
      return `${sampled.content.text} in ${elicited.content?.city}, ${roots.length} root`;
    });
    await connected(sdk, server, client);

    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'sunny in Oslo, 1 root' }]);
    await expect.poll(() => logged).toEqual(['asked']);

    const tool = one('tools/call ask', SpanKind.SERVER);
    for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list', 'notifications/message']) {
      const sent = one(method, SpanKind.CLIENT);
      await expect.poll(() => telemetry.spans().filter((span) => span.name === method).length).toBe(2);
      const handled = one(method, SpanKind.SERVER);
      // the server's span is a child of the tool call it was sent from; the client's, of the server's
      expect(sent.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
      expect(handled.parentSpanContext?.spanId).toBe(sent.spanContext().spanId);
      expect(handled.spanContext().traceId).toBe(tool.spanContext().traceId);
      for (const span of [sent, handled]) {
        expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe(method);
        expect(span.status.code).toBe(SpanStatusCode.UNSET);
      }
      if (method.startsWith('notifications/')) {
        expect(sent.attributes[ATTR_JSONRPC_REQUEST_ID]).toBeUndefined();
      } else {
        expect(sent.attributes[ATTR_JSONRPC_REQUEST_ID]).toMatch(/^\d+$/);
        expect(handled.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(sent.attributes[ATTR_JSONRPC_REQUEST_ID]);
      }
    }
    // the sender's duration (the server's) and the receiver's (the client's)
    for (const metric of [METRIC_MCP_CLIENT_OPERATION_DURATION, METRIC_MCP_SERVER_OPERATION_DURATION]) {
      const methods = (await telemetry.histogramPoints(metric)).map((point) => point.attributes[ATTR_MCP_METHOD_NAME]);
      expect(methods).toEqual(
        expect.arrayContaining(['sampling/createMessage', 'elicitation/create', 'roots/list', 'notifications/message']),
      );
    }
  }, 30_000);

  it('a request the client has no handler for is its SERVER span with rpc.response.status_code -32601 and no error (the caller’s mistake, as the conventions’ server status rule says), the server’s CLIENT span an error with error.type -32601', async () => {
    const client = clientWith(sdk, {});
    const server = askingServer(sdk, async (lowLevel) => {
      try {
        await lowLevel.listRoots();
        return 'listed';
      } catch (error) {
        return `refused ${(error as { code?: unknown }).code}`;
      }
    });
    await connected(sdk, server, client);

    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'refused -32601' }]);

    const sent = one('roots/list', SpanKind.CLIENT);
    const handled = one('roots/list', SpanKind.SERVER);
    expect(handled.parentSpanContext?.spanId).toBe(sent.spanContext().spanId);
    for (const span of [sent, handled]) expect(span.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32601');
    expect([sent.attributes[ATTR_ERROR_TYPE], sent.status.code]).toEqual(['-32601', SpanStatusCode.ERROR]);
    expect([handled.attributes[ATTR_ERROR_TYPE], handled.status.code]).toEqual([undefined, SpanStatusCode.UNSET]);
    // the client's mcp.server.operation.duration: the status code, no error.type
    const served = (await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION)).filter(
      (point) => point.attributes[ATTR_MCP_METHOD_NAME] === 'roots/list',
    );
    expect(
      served.map((point) => [point.attributes[ATTR_ERROR_TYPE], point.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]]),
    ).toEqual([[undefined, '-32601']]);
  }, 30_000);
});
