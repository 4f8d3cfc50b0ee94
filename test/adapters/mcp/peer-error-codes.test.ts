import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient } from 'otel-tool-calls/mcp';
import {
  ATTR_MCP_METHOD_NAME,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { SDK_LINES, type SdkLine, type TestClient } from './sdks.js';

/*
 * -32000 and -32001 are the codes the 1.x SDK raises for its own failures (the connection closed, a
 * request timed out), and JSON-RPC codes a server may answer with (-32000 to -32099 are servers' own:
 * a gateway whose upstream is gone). A peer's answer is recorded as every error answer is (its code as
 * `error.type` and `rpc.response.status_code`); the SDK's own failure by its name, with no status code,
 * as 2.x names it. On both SDK lines.
 */

const telemetry = useTestTelemetry();

type Message = Record<string, unknown>;

interface RawTransport {
  start(): Promise<void>;
  send(message: Message): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: Message) => void;
}

/**
 * A hand-written MCP server (a peer that is not McpServer: a gateway) over the in-memory transport:
 * it answers `initialize`, and every other request with `answer(method)`: a JSON-RPC error, or
 * nothing (the request stays in flight).
 */
async function rawServer(sdk: SdkLine, answer: (method: string) => { code: number; message: string } | undefined) {
  const [clientSide, serverSide] = sdk.linkedPair() as [unknown, RawTransport];
  let received: () => void = () => {};
  const requestReceived = new Promise<void>((resolve) => {
    received = resolve;
  });
  serverSide.onmessage = (message) => {
    if (message.id === undefined) return; // a notification
    const { id, method, params } = message as { id: unknown; method: string; params: { protocolVersion?: string } };
    if (method === 'initialize') {
      const result = {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'gateway', version: '1.0.0' },
      };
      void serverSide.send({ jsonrpc: '2.0', id, result });
      return;
    }
    received();
    const error = answer(method);
    if (error !== undefined) void serverSide.send({ jsonrpc: '2.0', id, error });
  };
  await serverSide.start();
  const client = instrumentClient(sdk.newClient() as never, telemetry.listener()) as unknown as TestClient & {
    ping(): Promise<unknown>;
  };
  await client.connect(clientSide);
  return { client, serverSide, requestReceived };
}

const clientSpans = (name: string) =>
  telemetry.spans().filter((span) => span.name === name && span.kind === SpanKind.CLIENT);

describe.each(SDK_LINES)('a peer’s error answer with the codes the SDK uses for its own failures, SDK $name', (sdk) => {
  it.each([
    [-32000, 'Upstream closed'],
    [-32001, 'Upstream timed out'],
  ])(
    'a peer’s error answer %i is its code in error.type and rpc.response.status_code, on tools/call and on any other operation, not the SDK’s own failure',
    async (code, message) => {
      const { client } = await rawServer(sdk, () => ({ code, message }));

      await expect(client.callTool({ name: 'weather', arguments: {} })).rejects.toMatchObject({ code });
      await expect(client.ping()).rejects.toMatchObject({ code });

      for (const name of ['tools/call weather', 'ping']) {
        const [span] = clientSpans(name);
        expect([name, span?.attributes[ATTR_ERROR_TYPE], span?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]]).toEqual([
          name,
          String(code),
          String(code),
        ]);
        expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message });
      }
      const points = await telemetry.histogramPoints(METRIC_MCP_CLIENT_OPERATION_DURATION);
      for (const method of ['tools/call', 'ping']) {
        const point = points.find((found) => found.attributes[ATTR_MCP_METHOD_NAME] === method);
        expect(point?.attributes).toMatchObject({
          [ATTR_ERROR_TYPE]: String(code),
          [ATTR_RPC_RESPONSE_STATUS_CODE]: String(code),
        });
      }
    },
  );

  it('the connection closing under a request in flight stays the SDK’s own failure: CONNECTION_CLOSED, no rpc.response.status_code', async () => {
    const { client, serverSide, requestReceived } = await rawServer(sdk, () => undefined);

    const call = client.callTool({ name: 'weather', arguments: {} });
    await requestReceived;
    await serverSide.close();
    await expect(call).rejects.toThrow();

    const [span] = clientSpans('tools/call weather');
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('CONNECTION_CLOSED');
    expect(span?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBeUndefined();
  });
});
