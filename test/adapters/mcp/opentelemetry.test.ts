import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_MCP_METHOD_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connect } from './connect.js';

const telemetry = useTestTelemetry();

const errorCount = async () =>
  (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).map(({ attributes, value }) => ({ attributes, value }));

function server() {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
  mcp.registerTool(
    'weather',
    { description: 'Current weather of a city', inputSchema: { city: z.string() } },
    async ({ city }) => ({ content: [{ type: 'text', text: `sunny in ${city}` }] }),
  );
  mcp.registerTool('refuse', { inputSchema: { city: z.string() } }, async () => ({
    content: [{ type: 'text', text: 'no forecast' }],
    isError: true,
  }));
  return mcp;
}

describe('MCP with the OpenTelemetry listener', () => {
  it('a server-side call is an execute_tool span of type extension with the MCP method and the request id', async () => {
    const listener = telemetry.listener({ errorPolicy: 'rethrow' });
    const { client, toolCallRequestIds } = await connect(instrumentServer(server(), listener));

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    const [span] = telemetry.spans();
    expect(span?.name).toBe('execute_tool weather');
    expect(span?.attributes).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'weather',
      [ATTR_GEN_AI_TOOL_TYPE]: 'extension',
      [ATTR_MCP_METHOD_NAME]: 'tools/call',
      [ATTR_GEN_AI_TOOL_CALL_ID]: toolCallRequestIds[0],
      [ATTR_GEN_AI_TOOL_DESCRIPTION]: 'Current weather of a city',
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(await errorCount()).toEqual([]);
  });

  it('an isError result is error.type tool_error on the span and in the error counter, rethrown as it was', async () => {
    const listener = telemetry.listener({ errorPolicy: 'rethrow' });
    const { client } = await connect(instrumentServer(server(), listener));

    const result = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'no forecast' }], isError: true });
    const [span] = telemetry.spans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no forecast' });
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    expect(await errorCount()).toEqual([
      {
        attributes: {
          [ATTR_GEN_AI_TOOL_NAME]: 'refuse',
          [ATTR_GEN_AI_TOOL_TYPE]: 'extension',
          [ATTR_ERROR_TYPE]: 'tool_error',
          [ATTR_TOOL_CALL_ERROR_OUTCOME]: 'rethrown',
        },
        value: 1,
      },
    ]);
  });

  it('reported: the client gets the formatted error and the span says reported', async () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const { client } = await connect(instrumentServer(server(), listener));

    const result = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    expect(result).toEqual({ content: [{ type: 'text', text: "Tool 'refuse' failed: no forecast" }], isError: true });
    expect(telemetry.spans()[0]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    expect((await errorCount())[0]?.value).toBe(1);
  });

  it('a client-side call is a span of type extension too, with tool_error for an isError result', async () => {
    const listener = telemetry.listener({ errorPolicy: 'rethrow' });
    const { client } = await connect(server());
    instrumentClient(client, listener);

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    const spans = telemetry.spans();
    expect(
      spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_TYPE], span.attributes[ATTR_ERROR_TYPE]]),
    ).toEqual([
      ['execute_tool weather', 'extension', undefined],
      ['execute_tool refuse', 'extension', 'tool_error'],
    ]);
    expect(spans[0]?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect((await errorCount()).map((point) => point.value)).toEqual([1]);
  });
});
