import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient, type TestServer } from './sdks.js';

/*
 * A request the SDK answers -32601 (Method not found) itself, no handler having run: a server with no
 * tool asked tools/call (McpServer registers that handler with its first tool), a method the client
 * made up. The server records it as the conventions ask for a failed operation.
 */

const telemetry = useTestTelemetry();

interface RawClient extends TestClient {
  request(request: { method: string; params?: object }, schema: unknown): Promise<unknown>;
}

/** A server with a prompt and no tool: it has no tools/call handler. */
function promptOnlyServer(sdk: SdkLine): TestServer {
  const mcp = sdk.newServer() as unknown as { registerPrompt(name: string, config: object, get: () => unknown): void };
  mcp.registerPrompt('greet', { description: 'Greets' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
  }));
  return mcp as unknown as TestServer;
}

async function connected(sdk: SdkLine) {
  const listener = telemetry.listener();
  const server = instrumentServer(promptOnlyServer(sdk) as never, listener) as unknown as TestServer;
  const client = instrumentClient(sdk.newClient() as never, listener) as unknown as RawClient;
  await connectLine(sdk, server, client);
  return client;
}

/** The handler's side of -32601: the caller's mistake, its status code and no error (server-status.test.ts). */
function expectMethodNotFound(span: {
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
}) {
  expect(span.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
  expect(span.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32601');
  expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
}

describe.each(SDK_LINES)('MCP requests the SDK answers without a handler, SDK $name', (sdk) => {
  it('a tools/call to a server with no tools/call handler is a SERVER span tools/call {tool} with rpc.response.status_code -32601, in the client span’s trace, and one sample in each server metric', async () => {
    const client = await connected(sdk);
    await expect(client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).rejects.toMatchObject({
      code: -32601,
    });

    const spans = telemetry.spans().filter((span) => span.name === 'tools/call weather');
    const server = spans.find((span) => span.kind === SpanKind.SERVER);
    const sent = spans.find((span) => span.kind === SpanKind.CLIENT);
    expect(server).toBeDefined();
    if (server === undefined || sent === undefined) return;
    expectMethodNotFound(server);
    expect(sent.attributes[ATTR_ERROR_TYPE]).toBe('-32601');
    expect(server.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('weather');
    expect(server.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model'); // a tool the server does not have
    expect(server.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(sent.attributes[ATTR_JSONRPC_REQUEST_ID]);
    expect(server.parentSpanContext?.spanId).toBe(sent.spanContext().spanId);

    const operation = (await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION)).filter(
      (point) => point.attributes[ATTR_MCP_METHOD_NAME] === 'tools/call',
    );
    expect(
      operation.map((point) => [
        point.value.count,
        point.attributes[ATTR_ERROR_TYPE],
        point.attributes[ATTR_RPC_RESPONSE_STATUS_CODE],
      ]),
    ).toEqual([[1, undefined, '-32601']]);
    expect((await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).length).toBeGreaterThan(0);
  }, 30_000);

  it('a method the client made up is a SERVER span _OTHER (the peer’s method name is not kept) with rpc.response.status_code -32601 and an operation duration sample', async () => {
    const client = await connected(sdk);
    await expect(client.request({ method: 'weather/forecast', params: {} }, z.object({}))).rejects.toMatchObject({
      code: -32601,
    });

    const sent = telemetry.spans().find((span) => span.name === 'weather/forecast' && span.kind === SpanKind.CLIENT);
    const handled = telemetry.spans().filter((span) => span.kind === SpanKind.SERVER && span.name === '_OTHER');
    expect(handled).toHaveLength(1);
    const [span] = handled;
    if (span === undefined) return;
    expectMethodNotFound(span);
    expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe('_OTHER');
    expect(span.attributes[ATTR_JSONRPC_REQUEST_ID]).toMatch(/^\d+$/);
    expect(span.parentSpanContext?.spanId).toBe(sent?.spanContext().spanId);
    const points = (await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION)).filter(
      (point) => point.attributes[ATTR_MCP_METHOD_NAME] === '_OTHER',
    );
    expect(points.map((point) => [point.value.count, point.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]])).toEqual([
      [1, '-32601'],
    ]);
  }, 30_000);
});
