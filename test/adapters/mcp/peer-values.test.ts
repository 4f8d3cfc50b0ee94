import { SpanKind } from '@opentelemetry/api';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_PROTOCOL_VERSION,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { rawClient } from './raw-peer.js';
import { connectLine, SDK_LINES, type SdkLine } from './sdks.js';
import { toolCallPoints, toolCallSpans } from './tool-call-telemetry.js';

/*
 * What an MCP peer chooses (a request id, an error message, a protocol version) reaches a span or a
 * metric only bounded: a peer must not be able to grow this process's memory or its metric series.
 */

const telemetry = useTestTelemetry();

const [SDK_1, SDK_2] = SDK_LINES as [SdkLine, SdkLine];
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

function weatherServer(sdk: SdkLine) {
  const server = sdk.newServer();
  const weather = server.registerTool('weather', { inputSchema: { city: z.string() } }, async () => ({
    content: [{ type: 'text', text: 'sunny' }],
  }));
  return { server, weather: weather as Record<string, (...args: unknown[]) => Promise<unknown>> };
}

const versionsOf = (spans: { attributes: Record<string, unknown> }[]) =>
  spans.map((span) => span.attributes[ATTR_MCP_PROTOCOL_VERSION]);

describe.each(SDK_LINES)('values an MCP peer chooses are bounded, SDK $name', (sdk) => {
  it('a JSON-RPC request id of 100,000 characters is jsonrpc.request.id cut to 256 characters', async () => {
    const { server } = weatherServer(sdk);
    instrumentServer(server as never, telemetry.listener());
    const peer = await rawClient(sdk, server);
    const id = 'r'.repeat(100_000);

    const answer = await peer.request(id, 'tools/call', { name: 'weather', arguments: { city: 'Oslo' } });

    expect(answer.result).toMatchObject({ content: [{ type: 'text', text: 'sunny' }] });
    const span = telemetry.span('tools/call weather');
    expect(span.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(`${'r'.repeat(255)}…`);
  });

  // 1.x sends a thrown McpError's message, "MCP error -32042: …", as the answer's: one prefix may stay
  it.each([
    ['1 MB', 'x'.repeat(1_000_000), /^(MCP error -32042: )?x{900,}…$/],
    ['100,000 newlines', 'x\n'.repeat(100_000), /^(MCP error -32042: )?(x\n){450,}x?…$/],
    ['stack lines', `denied\n${'    at frame (file.js:1:1)\n'.repeat(10_000)}`, /^(MCP error -32042: )?denied$/],
  ])(
    'a JSON-RPC error answer whose message is %s gives a bounded, stack-free span status',
    async (_name, message, status) => {
      const { server } = weatherServer(sdk);
      server.registerTool('consent', {}, async () => {
        throw sdk.urlElicitationRequired(message);
      });
      instrumentServer(server as never, telemetry.listener());
      const { client } = await connectLine(sdk, server);
      instrumentClient(client as never, telemetry.listener());

      await expect(client.callTool({ name: 'consent' })).rejects.toMatchObject({ code: -32042 });

      const [serverSpan, clientSpan] = toolCallSpans(telemetry);
      expect([serverSpan?.kind, clientSpan?.kind]).toEqual([SpanKind.SERVER, SpanKind.CLIENT]);
      for (const span of [serverSpan, clientSpan]) {
        expect(span?.status.message).toMatch(status);
        expect(span?.status.message?.length).toBeLessThanOrEqual(1024);
      }
    },
  );
});

describe('mcp.protocol.version is a YYYY-MM-DD date or absent', () => {
  it('a 2.x client sending 1,000 distinct versions and a 100,000-character one adds no mcp.server.operation.duration series; a real version is kept', async () => {
    const { server } = weatherServer(SDK_2);
    instrumentServer(server as never, telemetry.listener());
    const { client } = await connectLine(SDK_2, server);
    const call = (version?: string) =>
      client.callTool({
        name: 'weather',
        arguments: { city: 'Oslo' },
        ...(version === undefined ? {} : { _meta: { [PROTOCOL_VERSION_KEY]: version } }),
      });

    for (let index = 0; index < 1000; index++) await call(`bogus-${index}`);
    await call('v'.repeat(100_000));
    await call('2026-07-28'); // a version sent with the request
    await call(); // the version negotiated at initialize

    const points = await toolCallPoints(telemetry, METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(points.map((point) => [point.attributes[ATTR_MCP_PROTOCOL_VERSION], point.value.count])).toEqual([
      [undefined, 1001],
      ['2026-07-28', 1],
      ['2025-11-25', 1],
    ]);
    const versions = versionsOf(toolCallSpans(telemetry));
    expect(versions.slice(0, 1001).every((version) => version === undefined)).toBe(true);
    expect(versions.slice(1001)).toEqual(['2026-07-28', '2025-11-25']);
  });

  it('a 1.x server: an mcp-protocol-version header that is not a date is dropped, a date is kept', async () => {
    const { server, weather } = weatherServer(SDK_1);
    instrumentServer(server as never, telemetry.listener());
    // what 1.x McpServer passes a handler of a request that came over HTTP (a transport that does not check the header)
    const handle = (version: string) =>
      weather.handler?.(
        { city: 'Oslo' },
        {
          requestId: 1,
          signal: new AbortController().signal,
          requestInfo: { headers: { 'mcp-protocol-version': version } },
        },
      );

    for (const version of ['v'.repeat(100_000), '2025-6-18', '2025-06-18\n', 'latest', '2025-06-18']) {
      await handle(version);
    }

    expect(versionsOf(toolCallSpans(telemetry))).toEqual([undefined, undefined, undefined, undefined, '2025-06-18']);
    const points = await toolCallPoints(telemetry, METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(points.map((point) => point.attributes[ATTR_MCP_PROTOCOL_VERSION])).toEqual([undefined, '2025-06-18']);
  });

  it('a 1.x client: a transport whose protocolVersion is not a date records none', async () => {
    const { server } = weatherServer(SDK_1);
    const { client } = await connectLine(SDK_1, server);
    instrumentClient(client as never, telemetry.listener());
    const transport = (client as unknown as { transport: { protocolVersion?: string } }).transport;

    transport.protocolVersion = 'v'.repeat(100_000);
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    transport.protocolVersion = '2025-06-18';
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    expect(versionsOf(toolCallSpans(telemetry))).toEqual([undefined, '2025-06-18']);
    const points = await toolCallPoints(telemetry, METRIC_MCP_CLIENT_OPERATION_DURATION);
    expect(points.map((point) => point.attributes[ATTR_MCP_PROTOCOL_VERSION])).toEqual([undefined, '2025-06-18']);
  });
});
