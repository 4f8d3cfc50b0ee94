import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SpanKind } from '@opentelemetry/api';
import { ATTR_CLIENT_ADDRESS, ATTR_ERROR_TYPE, ATTR_NETWORK_TRANSPORT } from '@opentelemetry/semantic-conventions';
import { FastMCP } from 'fastmcp';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import { ATTR_GEN_AI_TOOL_NAME, ATTR_MCP_SESSION_ID, ATTR_RPC_RESPONSE_STATUS_CODE } from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { toolCallSpans } from './tool-call-telemetry.js';

/*
 * A real fastmcp server (fastmcp 4.20, on the MCP SDK 1.x): it builds a low-level Server per session
 * inside start() and answers tools/call with its own handler, and hands its sessions out only once a
 * client is connected (`server.sessions`). Over Streamable HTTP on 127.0.0.1, with the SDK's own client.
 */

const telemetry = useTestTelemetry();
const silent = { debug() {}, error() {}, info() {}, log() {}, warn() {} };
let stop: (() => Promise<void>) | undefined;

afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startWeather() {
  const server = new FastMCP({ name: 'weather', version: '1.0.0', logger: silent });
  server.addTool({
    name: 'weather',
    description: 'Current weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `sunny in ${city}`,
  });
  server.addTool({
    name: 'explode',
    parameters: z.object({}),
    execute: async () => {
      throw new Error('the barometer broke');
    },
  });
  const port = await freePort();
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1' } });
  stop = () => server.stop();
  return { server, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

describe('instrumentServer on fastmcp sessions', () => {
  it("observes each session's server, instrumented after start() as fastmcp hands it out, in the client's trace", async () => {
    const listener = telemetry.listener();
    const { server, url } = await startWeather();
    const client = instrumentClient(new Client({ name: 'agent', version: '1.0.0' }), listener);
    await client.connect(new StreamableHTTPClientTransport(url));
    expect(server.sessions).toHaveLength(1);
    for (const session of server.sessions) instrumentServer(session.server, listener);

    expect(await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).toMatchObject({
      content: [{ type: 'text', text: 'sunny in Oslo' }],
    });
    // fastmcp answers a tool that throws with an isError result; an unknown tool with -32601
    expect(await client.callTool({ name: 'explode', arguments: {} })).toMatchObject({ isError: true });
    await expect(client.callTool({ name: 'madeup', arguments: {} })).rejects.toMatchObject({ code: -32601 });
    await client.close();

    const spans = toolCallSpans(telemetry);
    const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
    const servers = spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(servers.map((span) => span.name)).toEqual(['tools/call weather', 'tools/call explode', 'tools/call madeup']);
    servers.forEach((span, index) => {
      expect(span.parentSpanContext?.spanId).toBe(clients[index]?.spanContext().spanId);
    });
    const [weather, explode, madeup] = servers;
    expect(weather?.attributes).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'weather',
      [ATTR_NETWORK_TRANSPORT]: 'tcp',
      [ATTR_MCP_SESSION_ID]: expect.any(String),
      // the transport was connected already: its HTTP requests' peer is still seen
      [ATTR_CLIENT_ADDRESS]: '127.0.0.1',
    });
    expect(explode?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    expect(madeup?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32601');
    expect(madeup?.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
  });

  it("observes the sessions to come, instrumented on fastmcp's connect event", async () => {
    const listener = telemetry.listener();
    const { server, url } = await startWeather();
    server.on('connect', ({ session }) => instrumentServer(session.server, listener));
    for (const name of ['first', 'second']) {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      await client.callTool({ name: 'weather', arguments: { city: name } });
      await client.close();
    }

    const servers = toolCallSpans(telemetry).filter((span) => span.kind === SpanKind.SERVER);
    expect(servers.map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME])).toEqual(['weather', 'weather']);
    expect(new Set(servers.map((span) => span.attributes[ATTR_MCP_SESSION_ID])).size).toBe(2);
  });
});
