import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import { METRIC_MCP_CLIENT_SESSION_DURATION, METRIC_MCP_SERVER_SESSION_DURATION } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { SDK_LINES, type SdkLine, type TestClient, type TestServer } from './sdks.js';

/*
 * `error.type` on mcp.{client,server}.session.duration: set if and only if the session ends with an
 * error (the conventions). A side that closes its session itself ends it normally; a connection that
 * closes under requests in flight, or after its transport reported an error, ends it in error.
 */

const telemetry = useTestTelemetry();

interface Transport {
  onerror?: (error: Error) => void;
  close(): Promise<void>;
}

/** A server whose tool `wait` never answers, and a client, both instrumented, over the in-memory transport. */
async function connected(sdk: SdkLine) {
  const listener = telemetry.listener();
  const server = instrumentServer(sdk.newServer() as never, listener) as unknown as TestServer;
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  server.registerTool('wait', { description: 'Never answers' }, () => {
    started();
    return new Promise(() => {});
  });
  const client = instrumentClient(sdk.newClient() as never, listener) as unknown as TestClient;
  const [clientTransport, serverTransport] = sdk.linkedPair() as [Transport, Transport];
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { server, client, clientTransport, serverTransport, running };
}

/** The error.type of each side's one session sample (`undefined`: none). */
async function sessionErrorTypes() {
  const errorTypes: unknown[] = [];
  for (const metric of [METRIC_MCP_CLIENT_SESSION_DURATION, METRIC_MCP_SERVER_SESSION_DURATION]) {
    const points = await telemetry.histogramPoints(metric);
    expect([metric, points.map((point) => point.value.count)]).toEqual([metric, [1]]);
    errorTypes.push(points[0]?.attributes[ATTR_ERROR_TYPE]);
  }
  return errorTypes;
}

describe.each(SDK_LINES)('MCP session durations that end in error, SDK $name', (sdk) => {
  it('a session either side closes itself, nothing in flight, has no error.type on either side', async () => {
    const { server } = await connected(sdk);
    await server.close();
    expect(await sessionErrorTypes()).toEqual([undefined, undefined]);
  }, 30_000);

  it('the server closing under a tool call in flight: the client’s session has error.type CONNECTION_CLOSED, the server’s (which closed it) none', async () => {
    const { server, client, running } = await connected(sdk);
    const call = client.callTool({ name: 'wait', arguments: {} });
    await running; // the request reached the server: its handler is running
    await server.close();
    await expect(call).rejects.toThrow();
    expect(await sessionErrorTypes()).toEqual(['CONNECTION_CLOSED', undefined]);
  }, 30_000);

  it('the connection closing after the client’s transport reported an error: the client’s session has that error’s type, the server’s none', async () => {
    const { clientTransport, serverTransport } = await connected(sdk);
    clientTransport.onerror?.(new TypeError('the stream broke'));
    await serverTransport.close(); // the peer's side of the connection closes: the client did not close it
    expect(await sessionErrorTypes()).toEqual(['TypeError', undefined]);
  }, 30_000);
});
