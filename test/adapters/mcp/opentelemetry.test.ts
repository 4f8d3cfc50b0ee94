import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_NETWORK_TRANSPORT, ATTR_SERVER_ADDRESS } from '@opentelemetry/semantic-conventions';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  MCP_OPERATION_DURATION_BUCKETS,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient } from './sdks.js';

const telemetry = useTestTelemetry();

const errorCount = async () =>
  (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).map(({ attributes, value }) => ({ attributes, value }));

function weatherServer(sdk: SdkLine) {
  const mcp = sdk.newServer();
  mcp.registerTool(
    'weather',
    { description: 'Current weather of a city', inputSchema: { city: z.string() } },
    async ({ city }: { city: string }) => ({ content: [{ type: 'text', text: `sunny in ${city}` }] }),
  );
  mcp.registerTool('refuse', { inputSchema: { city: z.string() } }, async () => ({
    content: [{ type: 'text', text: 'no forecast' }],
    isError: true,
  }));
  mcp.registerTool('explode', { inputSchema: { city: z.string() } }, async () => {
    throw new RangeError('the barometer broke');
  });
  return mcp;
}

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe.each(SDK_LINES)('MCP with the OpenTelemetry listener, SDK $name', (sdk) => {
  it('a server-side call is a SERVER span tools/call {tool} with the JSON-RPC id as jsonrpc.request.id', async () => {
    const listener = telemetry.listener({ errorPolicy: 'rethrow' });
    const { client, sent } = await connectLine(sdk, instrumentServer(weatherServer(sdk) as never, listener) as never);

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    const span = telemetry.span('tools/call weather');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: 'weather',
      [ATTR_GEN_AI_TOOL_TYPE]: 'extension',
      [ATTR_MCP_METHOD_NAME]: 'tools/call',
      [ATTR_JSONRPC_REQUEST_ID]: sent[0]?.id,
      [ATTR_GEN_AI_TOOL_DESCRIPTION]: 'Current weather of a city',
    });
    // the JSON-RPC id is not the model's tool call id
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(await errorCount()).toEqual([]);
  });

  it('a client-side call is a CLIENT span tools/call {tool} and sends its trace context in _meta, the app’s objects untouched', async () => {
    const listener = telemetry.listener();
    const { client, sent } = await connectLine(sdk, weatherServer(sdk));
    instrumentClient(client as never, listener);
    const meta = Object.freeze({ 'example.com/tenant': 'acme' });
    const params = Object.freeze({ name: 'weather', arguments: { city: 'Oslo' }, _meta: meta });

    await client.callTool(params);

    const span = telemetry.span('tools/call weather');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    const { traceId, spanId } = span.spanContext();
    expect(sent[0]?.meta).toEqual({ 'example.com/tenant': 'acme', traceparent: `00-${traceId}-${spanId}-01` });
    expect(params._meta).toEqual({ 'example.com/tenant': 'acme' }); // the caller's objects are untouched
  });

  it('an instrumented client sends the trace context with every request and notification, and records the JSON-RPC id of its tools/call', async () => {
    const client = instrumentClient(sdk.newClient() as never, telemetry.listener()) as unknown as TestClient;
    const { parent, result } = await telemetry.withParent(async () => {
      const { messages, sent } = await connectLine(sdk, weatherServer(sdk), client);
      const listing = client as unknown as { listTools(): Promise<unknown>; ping(): Promise<unknown> };
      await listing.listTools();
      await listing.ping();
      await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
      return { messages, sent };
    });

    const span = telemetry.span('tools/call weather');
    const traceparentOf = (spanId: string) => `00-${parent.spanContext().traceId}-${spanId}-01`;
    const byMethod = Object.fromEntries(result.messages.map(({ method, meta }) => [method, meta?.traceparent]));
    expect(byMethod).toEqual({
      initialize: traceparentOf(parent.spanContext().spanId),
      'notifications/initialized': traceparentOf(parent.spanContext().spanId),
      'tools/list': traceparentOf(parent.spanContext().spanId),
      ping: traceparentOf(parent.spanContext().spanId),
      'tools/call': traceparentOf(span.spanContext().spanId),
    });
    expect(span.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(result.sent[0]?.id);
  });

  it('both sides instrumented: the server span is the child of the client span, one trace', async () => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
    );
    instrumentClient(client as never, telemetry.listener());

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    const [server, clientSpan] = telemetry.spans();
    expect([server?.kind, clientSpan?.kind]).toEqual([SpanKind.SERVER, SpanKind.CLIENT]);
    expect(server?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
    expect(server?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(server?.links).toEqual([]);
  });

  it('a traceparent in _meta is the parent, and the ambient context is linked', async () => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
    );

    // the in-memory transport carries the caller's async context to the server: its ambient span
    const { parent } = await telemetry.withParent(() =>
      client.callTool({ name: 'weather', arguments: { city: 'Oslo' }, _meta: { traceparent: TRACEPARENT } }),
    );

    const span = telemetry.span('tools/call weather');
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span.links.map((link) => link.context.spanId)).toEqual([parent.spanContext().spanId]);
  });

  it.each([
    ['a traceparent that is not a string', { traceparent: 42 }],
    ['a malformed traceparent', { traceparent: '00-not-a-trace-01' }],
    ['an all-zero trace id', { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }],
    [
      'an oversized tracestate and baggage',
      { traceparent: 'x'.repeat(10_000), tracestate: 'a=b,'.repeat(5000), baggage: 'k=v,'.repeat(10_000) },
    ],
  ])('%s is ignored: the call runs and the server span starts a new trace', async (_name, meta) => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
    );

    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' }, _meta: meta as never });

    expect(result.content).toEqual([{ type: 'text', text: 'sunny in Oslo' }]);
    const span = telemetry.span('tools/call weather');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.links).toEqual([]);
  });

  it('a failed tool is error.type tool_error on both sides, whether it threw or returned isError', async () => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
    );
    instrumentClient(client as never, telemetry.listener());

    const refused = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });
    const exploded = await client.callTool({ name: 'explode', arguments: { city: 'Oslo' } });

    expect(refused).toMatchObject({ content: [{ type: 'text', text: 'no forecast' }], isError: true });
    expect(exploded).toMatchObject({ isError: true });
    const failures = telemetry
      .spans()
      .map((span) => [span.name, span.kind, span.attributes[ATTR_ERROR_TYPE], span.status.code]);
    expect(failures).toEqual([
      ['tools/call refuse', SpanKind.SERVER, 'tool_error', SpanStatusCode.ERROR],
      ['tools/call refuse', SpanKind.CLIENT, 'tool_error', SpanStatusCode.ERROR],
      ['tools/call explode', SpanKind.SERVER, 'tool_error', SpanStatusCode.ERROR],
      ['tools/call explode', SpanKind.CLIENT, 'tool_error', SpanStatusCode.ERROR],
    ]);
    expect(telemetry.spans()[2]?.status.message).toBe('the barometer broke');
    const counted = await errorCount();
    expect(counted.every((point) => point.attributes[ATTR_ERROR_TYPE] === 'tool_error')).toBe(true);
    expect(counted.reduce((sum, point) => sum + point.value, 0)).toBe(4); // 2 calls x 2 sides
  });

  it('a JSON-RPC error answer is its code as error.type and rpc.response.status_code, its message as the status', async () => {
    const server = weatherServer(sdk);
    server.registerTool('consent', {}, async () => {
      throw sdk.urlElicitationRequired('Open the consent page');
    });
    const { client } = await connectLine(sdk, instrumentServer(server as never, telemetry.listener()) as never);
    instrumentClient(client as never, telemetry.listener());

    await expect(client.callTool({ name: 'consent' })).rejects.toThrow(/Open the consent page/);

    const [serverSpan, clientSpan] = telemetry.spans();
    for (const span of [serverSpan, clientSpan]) {
      expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('-32042');
      expect(span?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32042');
      expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    }
    // the JSON-RPC error message, without the 1.x client's "MCP error {code}: " prefix
    expect(clientSpan?.status.message).toMatch(/^(MCP error -32042: )?Open the consent page$/);
    expect(clientSpan?.status.message).not.toMatch(/^MCP error -32042: MCP error/);
    const [point] = await telemetry.histogramPoints(METRIC_MCP_CLIENT_OPERATION_DURATION);
    expect(point?.attributes).toMatchObject({ [ATTR_ERROR_TYPE]: '-32042', [ATTR_RPC_RESPONSE_STATUS_CODE]: '-32042' });
  });

  it.each([
    ['an unknown tool', { name: 'nowhere', arguments: { city: 'Oslo' } }, 'unknown_tool'],
    ['arguments that fail the input schema', { name: 'weather', arguments: { city: 42 } }, 'invalid_input'],
  ])(
    'a request McpServer refuses before the tool runs (%s) is a SERVER span with its error, in the client’s trace, and a mcp.server.operation.duration sample',
    async (_case, params, rejection) => {
      const plain = await connectLine(sdk, weatherServer(sdk));
      const unobserved = await plain.client.callTool(params as never).then(
        (result) => ({ result }),
        (error: Error) => ({ error: error.message }),
      );
      const { client } = await connectLine(
        sdk,
        instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
      );
      instrumentClient(client as never, telemetry.listener());

      const answer = await client.callTool(params as never).then(
        (result) => ({ result }),
        (error: Error) => ({ error: error.message }),
      );

      expect(answer).toEqual(unobserved); // what McpServer answers, unchanged
      const server = telemetry.spans().find((span) => span.kind === SpanKind.SERVER);
      const clientSpan = telemetry.spans().find((span) => span.kind === SpanKind.CLIENT);
      expect(server?.name).toBe(`tools/call ${params.name}`);
      expect(server?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
      expect(server?.status.code).toBe(SpanStatusCode.ERROR);
      // 2.x answers an unknown tool with a JSON-RPC error (-32602), everything else is an isError answer
      const errorAnswer = sdk.name === '2.x' && rejection === 'unknown_tool';
      expect(server?.attributes).toMatchObject({
        [ATTR_ERROR_TYPE]: errorAnswer ? '-32602' : 'tool_error',
        [ATTR_MCP_METHOD_NAME]: 'tools/call',
        [ATTR_TOOL_CALL_ERROR_SOURCE]: 'model',
        [ATTR_JSONRPC_REQUEST_ID]: expect.any(String),
      });
      expect(server?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe(errorAnswer ? '-32602' : undefined);
      const [point] = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
      expect(point?.value.count).toBe(1);
      expect(point?.attributes).toMatchObject({
        [ATTR_MCP_METHOD_NAME]: 'tools/call',
        [ATTR_ERROR_TYPE]: errorAnswer ? '-32602' : 'tool_error',
      });
    },
  );

  it("reported: a request McpServer refuses gets the listener's text as an isError result", async () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const { client } = await connectLine(sdk, instrumentServer(weatherServer(sdk) as never, listener) as never);

    const result = await client.callTool({ name: 'nowhere', arguments: {} });

    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^Tool 'nowhere' failed: /) }],
    });
  });

  it('records mcp.client/server.operation.duration beside gen_ai.execute_tool.duration: one sample per call and side', async () => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
    );
    instrumentClient(client as never, telemetry.listener());

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    const operation = { [ATTR_MCP_METHOD_NAME]: 'tools/call', [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool' };
    for (const name of [METRIC_MCP_CLIENT_OPERATION_DURATION, METRIC_MCP_SERVER_OPERATION_DURATION]) {
      const points = await telemetry.histogramPoints(name);
      // 2.x also knows the negotiated mcp.protocol.version on both sides
      const { [ATTR_MCP_PROTOCOL_VERSION]: _version, ...rest0 } = points[0]?.attributes ?? {};
      const { [ATTR_MCP_PROTOCOL_VERSION]: _version1, ...rest1 } = points[1]?.attributes ?? {};
      expect([rest0, rest1]).toEqual([
        { ...operation, [ATTR_GEN_AI_TOOL_NAME]: 'weather' },
        { ...operation, [ATTR_GEN_AI_TOOL_NAME]: 'refuse', [ATTR_ERROR_TYPE]: 'tool_error' },
      ]);
      expect(points.map((point) => point.value.count)).toEqual([1, 1]);
      expect(points[0]?.value.buckets.boundaries).toEqual(MCP_OPERATION_DURATION_BUCKETS);
      expect((await telemetry.metric(name))?.descriptor.unit).toBe('s');
    }
    // one gen_ai sample per call on each side: 2 calls x 2 sides
    const execute = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(execute.reduce((sum, point) => sum + point.value.count, 0)).toBe(4);
  });

  it('reported: the client gets the formatted error and the span says reported', async () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const { client } = await connectLine(sdk, instrumentServer(weatherServer(sdk) as never, listener) as never);

    const result = await client.callTool({ name: 'refuse', arguments: { city: 'Oslo' } });

    expect(result).toMatchObject({
      content: [{ type: 'text', text: "Tool 'refuse' failed: no forecast" }],
      isError: true,
    });
    expect(telemetry.spans()[0]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    expect((await errorCount())[0]?.value).toBe(1);
  });

  it("both sides 'report': the client's model reads the server's report once, not prefixed a second time", async () => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener({ errorPolicy: 'report' })) as never,
    );
    instrumentClient(client as never, telemetry.listener({ errorPolicy: 'report' }));

    const result = await client.callTool({ name: 'explode', arguments: { city: 'Oslo' } });

    expect(result).toMatchObject({
      content: [{ type: 'text', text: "Tool 'explode' failed: the barometer broke" }],
      isError: true,
    });
    // each side still records its failure
    const outcomes = telemetry.spans().map((span) => [span.kind, span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]]);
    expect(outcomes).toEqual([
      [SpanKind.SERVER, 'reported'],
      [SpanKind.CLIENT, 'reported'],
    ]);
  });

  it('an in-memory transport records no network attributes rather than a wrong one', async () => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
    );
    instrumentClient(client as never, telemetry.listener());

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    for (const span of telemetry.spans()) {
      expect(span.attributes[ATTR_NETWORK_TRANSPORT]).toBeUndefined();
      expect(span.attributes[ATTR_SERVER_ADDRESS]).toBeUndefined();
    }
  });
});
