import { SpanKind } from '@opentelemetry/api';
import { instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient, type TestServer } from './sdks.js';

/*
 * A client can name any tool or prompt. What the server does not have is recorded under one name in
 * the server's metrics (`_unknown`), in `mcp.server.operation.duration` as in
 * `gen_ai.execute_tool.duration`: otherwise each invented name would be a metric series of its own,
 * never freed. The span keeps the name the client sent (a trace is not a series).
 */

const telemetry = useTestTelemetry();

interface PromptClient extends TestClient {
  getPrompt(params: { name: string }): Promise<unknown>;
  complete(params: object): Promise<unknown>;
}

/** One tool, one prompt, and a prompt that fails (a prompt the server has: its name is kept). */
function server(sdk: SdkLine, withTool = true): TestServer {
  const mcp = sdk.newServer() as unknown as TestServer & {
    registerPrompt(name: string, config: object, get: () => unknown): void;
  };
  if (withTool) {
    mcp.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }: { city: string }) => ({
      content: [{ type: 'text', text: `sunny in ${city}` }],
    }));
  }
  mcp.registerPrompt('greet', { description: 'Greets' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
  }));
  mcp.registerPrompt('broken', { description: 'Fails' }, () => {
    throw new Error('no template');
  });
  return mcp;
}

async function connected(sdk: SdkLine, withTool = true) {
  const instrumented = instrumentServer(server(sdk, withTool) as never, telemetry.listener()) as unknown as TestServer;
  const { client } = await connectLine(sdk, instrumented);
  return client as PromptClient;
}

const settled = (promise: Promise<unknown>) => promise.catch(() => undefined);

/** The `mcp.server.operation.duration` points of `method`: their `attribute` and sample count. */
async function serverSeries(method: string, attribute: string) {
  return (await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION))
    .filter((point) => point.attributes[ATTR_MCP_METHOD_NAME] === method)
    .map((point) => [point.attributes[attribute], point.value.count])
    .sort();
}

describe.each(SDK_LINES)('what the client invents makes no metric series on the server, SDK $name', (sdk) => {
  it('a tools/call of tools the server does not have is _unknown in mcp.server.operation.duration, as in gen_ai.execute_tool.duration; the span keeps the name', async () => {
    const client = await connected(sdk);
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    for (const name of ['invented-1', 'invented-2', 'invented-3']) await settled(client.callTool({ name }));

    expect(await serverSeries('tools/call', ATTR_GEN_AI_TOOL_NAME)).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 3],
      ['weather', 1],
    ]);
    const execute = (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).map((point) => [
      point.attributes[ATTR_GEN_AI_TOOL_NAME],
      point.value.count,
    ]);
    expect(execute.sort()).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 3],
      ['weather', 1],
    ]);
    const spans = telemetry.spans().filter((span) => span.kind === SpanKind.SERVER && span.name.includes('invented'));
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME]).sort()).toEqual([
      'invented-1',
      'invented-2',
      'invented-3',
    ]);
  });

  it('a tools/call to a server with no tool at all (the SDK answers -32601) is _unknown in mcp.server.operation.duration too', async () => {
    const client = await connected(sdk, false);
    for (const name of ['invented-1', 'invented-2']) await settled(client.callTool({ name }));

    expect(await serverSeries('tools/call', ATTR_GEN_AI_TOOL_NAME)).toEqual([[GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 2]]);
  });

  it('a prompts/get of prompts the server does not have is _unknown in mcp.server.operation.duration; a prompt it has keeps its name, failing or not; the span keeps the name', async () => {
    const client = await connected(sdk);
    await client.getPrompt({ name: 'greet' });
    await settled(client.getPrompt({ name: 'broken' }));
    for (const name of ['invented-1', 'invented-2']) await settled(client.getPrompt({ name }));

    expect(await serverSeries('prompts/get', ATTR_GEN_AI_PROMPT_NAME)).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 2],
      ['broken', 1],
      ['greet', 1],
    ]);
    const codes = (await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION))
      .filter((point) => point.attributes[ATTR_GEN_AI_PROMPT_NAME] === GEN_AI_TOOL_NAME_VALUE_UNKNOWN)
      .map((point) => point.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]);
    expect(codes).toEqual(['-32602']); // what McpServer answers a prompt it does not have
    const spans = telemetry.spans().filter((span) => span.kind === SpanKind.SERVER && span.name.includes('invented'));
    expect(spans.map((span) => span.name).sort()).toEqual(['prompts/get invented-1', 'prompts/get invented-2']);
  });

  it('a completion/complete of the arguments of prompts the server does not have is _unknown in mcp.server.operation.duration', async () => {
    const client = await connected(sdk);
    for (const name of ['invented-1', 'invented-2']) {
      await settled(client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: 'city', value: 'O' } }));
    }

    expect(await serverSeries('completion/complete', ATTR_GEN_AI_PROMPT_NAME)).toEqual([
      [GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 2],
    ]);
  });
});
