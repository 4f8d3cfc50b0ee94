import { SpanKind } from '@opentelemetry/api';
import { instrumentClient } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_LISTED_TOOLS } from '../../../src/adapters/mcp/listed-tools.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient } from './sdks.js';

/*
 * On the client, a model can call any name. Once the client has listed its server's tools, a call
 * to a name the server did not list that fails is the model's call of a tool that does not exist:
 * `_unknown` in the client's metrics, error source `model`, the span keeping the name; before any
 * list, the client knows no names and keeps each.
 */

const telemetry = useTestTelemetry();

interface ListingClient extends TestClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: { name: string }[]; nextCursor?: string }>;
}

/** An McpServer with a tool that works and one that fails, and an instrumented client connected to it. */
async function mcpServerAndClient(sdk: SdkLine) {
  const server = sdk.newServer();
  server.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }: { city: string }) => ({
    content: [{ type: 'text', text: `sunny in ${city}` }],
  }));
  server.registerTool('broken', {}, async () => {
    throw new Error('upstream down');
  });
  const client = instrumentClient(sdk.newClient() as never, telemetry.listener()) as unknown as ListingClient;
  await connectLine(sdk, server, client);
  return client;
}

/** The client's `gen_ai.execute_tool.duration` sample counts and `tool_call.errors` by tool name (and source). */
async function clientSeries() {
  const durations = (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).map((point) => [
    point.attributes[ATTR_GEN_AI_TOOL_NAME],
    point.value.count,
  ]);
  const errors = (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).map((point) => [
    point.attributes[ATTR_GEN_AI_TOOL_NAME],
    point.attributes[ATTR_TOOL_CALL_ERROR_SOURCE],
    point.value,
  ]);
  return { durations: durations.sort(), errors: errors.sort() };
}

/** McpServer's answer to a tool it does not have. */
async function notFound(sdk: SdkLine, call: Promise<Record<string, unknown>>) {
  if (sdk.name === '1.x') expect(await call).toMatchObject({ isError: true });
  else await expect(call).rejects.toMatchObject({ code: -32602 });
}

const clientSpanNames = () =>
  telemetry
    .spans()
    .filter((span) => span.kind === SpanKind.CLIENT && span.attributes[ATTR_GEN_AI_TOOL_NAME] !== undefined)
    .map((span) => span.name)
    .sort();

describe.each(SDK_LINES)('a client that listed its tools counts the names it made up as _unknown, SDK $name', (sdk) => {
  it("after tools/list: failed calls to names not listed are one series, _unknown, the model's errors; listed tools keep their names; the spans keep every name", async () => {
    const client = await mcpServerAndClient(sdk);
    await client.listTools();
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(await client.callTool({ name: 'broken', arguments: {} })).toMatchObject({ isError: true });
    // McpServer answers a tool it does not have with "Tool invented-1 not found": a tool result with
    // isError on 1.x, a -32602 on 2.x
    for (const name of ['invented-1', 'invented-2']) await notFound(sdk, client.callTool({ name, arguments: {} }));

    const { durations, errors } = await clientSeries();
    expect(durations).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 2],
      ['broken', 1],
      ['weather', 1],
    ]);
    expect(errors).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 'model', 2],
      ['broken', undefined, 1],
    ]);
    expect(clientSpanNames()).toEqual([
      'tools/call broken',
      'tools/call invented-1',
      'tools/call invented-2',
      'tools/call weather',
    ]);
  });

  it('before any tools/list the client knows no names: a made-up name keeps its own', async () => {
    const client = await mcpServerAndClient(sdk);
    await notFound(sdk, client.callTool({ name: 'invented', arguments: {} }));

    expect((await clientSeries()).errors).toEqual([['invented', undefined, 1]]);
  });

  it("a low-level server's -32601 for a name it did not list is _unknown too; a timeout calling one says nothing of the name, which it keeps", async () => {
    const server = sdk.newLowLevelServer();
    sdk.onToolsList(server, ['weather']);
    sdk.onToolsCall(server, async (request) => {
      if (request.params.name === 'weather') return { content: [{ type: 'text', text: 'sunny' }] };
      if (request.params.name === 'stalls') return new Promise(() => undefined);
      throw sdk.protocolError(-32601, `Unknown tool: ${request.params.name}`);
    });
    const client = instrumentClient(sdk.newClient() as never, telemetry.listener()) as unknown as ListingClient;
    await connectLine(sdk, server, client);
    await client.listTools();

    await expect(client.callTool({ name: 'invented', arguments: {} })).rejects.toMatchObject({ code: -32601 });
    const timeout = { timeout: 50 };
    const options = sdk.name === '1.x' ? [undefined, timeout] : [timeout];
    await expect(client.callTool({ name: 'stalls', arguments: {} }, ...options)).rejects.toThrow(/timed out/i);

    const { errors } = await clientSeries();
    expect(errors).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 'model', 1],
      ['stalls', undefined, 1],
    ]);
  });

  it('the names of every page of tools/list are known; a list from its first page again starts them anew', async () => {
    const server = sdk.newLowLevelServer();
    let firstPage = ['a'];
    // two pages: the first page's names, then 'b' after the cursor
    sdk.onToolsList(server, (cursor) =>
      cursor === 'page-2' ? { names: ['b'] } : { names: firstPage, nextCursor: 'page-2' },
    );
    sdk.onToolsCall(server, async () => ({ content: [{ type: 'text', text: 'failed' }], isError: true }));
    const client = instrumentClient(sdk.newClient() as never, telemetry.listener()) as unknown as ListingClient;
    await connectLine(sdk, server, client);
    const first = await client.listTools();
    await client.listTools({ cursor: first.nextCursor as string });
    await client.callTool({ name: 'a', arguments: {} });
    await client.callTool({ name: 'b', arguments: {} });
    firstPage = ['c'];
    await client.listTools(); // 'a' and 'b' are gone from the server's list
    await client.callTool({ name: 'a', arguments: {} });
    await client.callTool({ name: 'c', arguments: {} });

    expect((await clientSeries()).errors).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 'model', 1],
      ['a', undefined, 1],
      ['b', undefined, 1],
      ['c', undefined, 1],
    ]);
  });
});

describe('a server that lists more tools than the client keeps names of', () => {
  it(`over ${MAX_LISTED_TOOLS} names: read as a server that listed none, a made-up name keeps its own`, async () => {
    const [sdk] = SDK_LINES as [SdkLine];
    const server = sdk.newLowLevelServer();
    sdk.onToolsList(
      server,
      Array.from({ length: MAX_LISTED_TOOLS + 1 }, (_, i) => `tool-${i}`),
    );
    sdk.onToolsCall(server, async () => ({ content: [{ type: 'text', text: 'failed' }], isError: true }));
    const client = instrumentClient(sdk.newClient() as never, telemetry.listener()) as unknown as ListingClient;
    await connectLine(sdk, server, client);
    expect((await client.listTools()).tools).toHaveLength(MAX_LISTED_TOOLS + 1);
    await client.callTool({ name: 'invented', arguments: {} });

    expect((await clientSeries()).errors).toEqual([['invented', undefined, 1]]);
  });
});
