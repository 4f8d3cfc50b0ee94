import { createMCPClient } from '@ai-sdk/mcp';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { generateText, stepCountIs } from 'ai';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { instrumentClient } from 'otel-tool-calls/ai-sdk-mcp';
import { instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { toolCallThenText } from '../ai-sdk/mock-model.js';

const telemetry = useTestTelemetry();

/** The client's `callTool`, which the tools of its `tools()` call (not in its public type): 1.x reads `args`, 2.x `arguments`. */
function callTool(client: object, call: { name: string; args: object }): Promise<unknown> {
  return (client as { callTool(call: object): Promise<unknown> }).callTool({ ...call, arguments: call.args });
}

/** @ai-sdk/mcp 2.x (the compatibility run, with ai 7) negotiates by protocol era, and hands callTool no AI SDK call id. */
const secondLine = (client: object) => 'protocolEra' in client;

/** A real MCP server (SDK 1.x) with a working and a failing tool, `observed` with this package's instrumentServer. */
function weatherServer(observed: boolean) {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }) => {
    telemetry.tracer.startSpan('weather lookup').end();
    return { content: [{ type: 'text' as const, text: `sunny in ${city}` }] };
  });
  server.registerTool('forecast', { inputSchema: { city: z.string() } }, async () => ({
    content: [{ type: 'text' as const, text: 'no forecast today' }],
    isError: true,
  }));
  return observed ? instrumentServer(server, telemetry.listener()) : server;
}

/** The AI SDK's MCP client connected to `server` over the MCP SDK's in-memory transport. */
async function aiSdkClient(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  return createMCPClient({ transport: clientTransport });
}

describe('instrumentClient on the AI SDK’s MCP client (createMCPClient)', () => {
  it('a tool of tools() in generateText is a tools/call CLIENT span; the instrumented server continues its trace, with the same request id', async () => {
    const client = instrumentClient(await aiSdkClient(weatherServer(true)), telemetry.listener());
    try {
      const result = await generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Lima' }, toolCallId: 'call-1' }),
        tools: await client.tools(),
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Lima?',
      });
      expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
        content: [{ type: 'text', text: 'sunny in Lima' }],
      });
    } finally {
      await client.close();
    }
    const [clientSpan, serverSpan] = telemetry
      .spans()
      .filter((span) => span.name === 'tools/call weather')
      .sort((a, b) => a.kind - b.kind)
      .reverse();
    expect(clientSpan?.kind).toBe(SpanKind.CLIENT);
    expect(serverSpan?.kind).toBe(SpanKind.SERVER);
    expect(clientSpan?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect(clientSpan?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe(secondLine(client) ? undefined : 'call-1');
    expect(serverSpan?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(clientSpan?.attributes[ATTR_JSONRPC_REQUEST_ID]).toBeDefined();
    expect(clientSpan?.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(serverSpan?.attributes[ATTR_JSONRPC_REQUEST_ID]);
    expect(telemetry.span('weather lookup').parentSpanContext?.spanId).toBe(serverSpan?.spanContext().spanId);
    const points = await telemetry.histogramPoints(METRIC_MCP_CLIENT_OPERATION_DURATION);
    expect(points.reduce((n, point) => n + point.value.count, 0)).toBe(1);
  });

  it('an isError result is a failure (tool_error, one increment) and the AI SDK gets the result it gets without the adapter', async () => {
    const client = instrumentClient(await aiSdkClient(weatherServer(false)), telemetry.listener());
    try {
      const result = await generateText({
        model: toolCallThenText({ toolName: 'forecast', input: { city: 'Lima' }, toolCallId: 'call-2' }),
        tools: await client.tools(),
        stopWhen: stepCountIs(3),
        prompt: 'Forecast?',
      });
      expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
        content: [{ type: 'text', text: 'no forecast today' }],
        isError: true,
      });
    } finally {
      await client.close();
    }
    const span = telemetry.span('tools/call forecast');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => point.value)).toEqual([1]);
  });

  it("'report' hands the AI SDK the listener's text as an isError result", async () => {
    const client = instrumentClient(
      await aiSdkClient(weatherServer(false)),
      telemetry.listener({ errorPolicy: 'report' }),
    );
    try {
      const result = await callTool(client, { name: 'forecast', args: { city: 'Lima' } });
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text' }] });
      expect((result as { content: Array<{ text: string }> }).content[0]?.text).not.toBe('no forecast today');
    } finally {
      await client.close();
    }
  });

  it('with the AI SDK adapter on the same tools: one span per call (the MCP call joins the execute_tool span)', async () => {
    const listener = telemetry.listener();
    const client = instrumentClient(await aiSdkClient(weatherServer(false)), listener);
    try {
      await generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Lima' }, toolCallId: 'call-3' }),
        tools: wrapTools(await client.tools(), listener),
        stopWhen: stepCountIs(3),
        prompt: 'Weather?',
      });
    } finally {
      await client.close();
    }
    const spans = telemetry.spans().filter((span) => /^(execute_tool|tools\/call) /.test(span.name));
    expect(spans.map((span) => span.name)).toEqual(['execute_tool weather']);
    expect(spans[0]?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
  });

  it('every request carries the trace context; instrumenting twice is a no-op; a wrong client is a clear error', async () => {
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    server.registerTool('weather', { inputSchema: { city: z.string() } }, async (_args, extra) => ({
      content: [{ type: 'text' as const, text: JSON.stringify(Object.keys(extra._meta ?? {})) }],
    }));
    const listener = telemetry.listener();
    const client = await aiSdkClient(server);
    expect(instrumentClient(instrumentClient(client, listener), listener)).toBe(client);
    try {
      const result = (await callTool(client, { name: 'weather', args: { city: 'Lima' } })) as {
        content: Array<{ text: string }>;
      };
      expect(JSON.parse(result.content[0]?.text ?? '[]')).toContain('traceparent');
    } finally {
      await client.close();
    }
    expect(() => instrumentClient({} as never, listener)).toThrow(
      /instrumentClient: `client` must be a client of createMCPClient\(\)/,
    );
  });
});
