import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_NETWORK_TRANSPORT, ATTR_SERVER_ADDRESS } from '@opentelemetry/semantic-conventions';
import { ToolCallListeners } from 'otel-tool-calls';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  MCP_OPERATION_DURATION_BUCKETS,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_CLIENT_SESSION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient, type TestServer } from './sdks.js';
import { toolCallPoints, toolCallSpans } from './tool-call-telemetry.js';

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
    const traceparentOf = (name: string) => {
      const own = telemetry.span(name); // each message carries its own CLIENT span, a child of the caller's
      expect([own.kind, own.parentSpanContext?.spanId]).toEqual([SpanKind.CLIENT, parent.spanContext().spanId]);
      return `00-${parent.spanContext().traceId}-${own.spanContext().spanId}-01`;
    };
    const byMethod = Object.fromEntries(result.messages.map(({ method, meta }) => [method, meta?.traceparent]));
    expect(byMethod).toEqual({
      initialize: traceparentOf('initialize'),
      'notifications/initialized': traceparentOf('notifications/initialized'),
      'tools/list': traceparentOf('tools/list'),
      ping: traceparentOf('ping'),
      'tools/call': `00-${parent.spanContext().traceId}-${span.spanContext().spanId}-01`,
    });
    expect(span.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(result.sent[0]?.id);
  });

  it("the JSON-RPC id of a tools/call sent after callTool returned (an SDK that awaits first) still goes on the call's span", async () => {
    const client = sdk.newClient();
    // a callTool that awaits before it sends: the request leaves after the observed callTool returned
    const callTool = client.callTool;
    client.callTool = async function (this: TestClient, ...args) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return callTool.apply(this, args);
    };
    instrumentClient(client as never, telemetry.listener());
    const { sent } = await connectLine(sdk, weatherServer(sdk), client);
    await Promise.all([
      client.callTool({ name: 'weather', arguments: { city: 'Oslo' } }),
      client.callTool({ name: 'weather', arguments: { city: 'Lima' } }),
    ]);

    const ids = telemetry
      .spans()
      .filter((span) => span.name === 'tools/call weather')
      .map((span) => span.attributes[ATTR_JSONRPC_REQUEST_ID]);
    expect(ids.sort()).toEqual(sent.map(({ id }) => id).sort());
    expect(new Set(ids).size).toBe(2);
  });

  it('both sides instrumented: the server span is the child of the client span, one trace', async () => {
    const { client } = await connectLine(
      sdk,
      instrumentServer(weatherServer(sdk) as never, telemetry.listener()) as never,
    );
    instrumentClient(client as never, telemetry.listener());

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    const [server, clientSpan] = toolCallSpans(telemetry);
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
    const failures = toolCallSpans(telemetry).map((span) => [
      span.name,
      span.kind,
      span.attributes[ATTR_ERROR_TYPE],
      span.status.code,
    ]);
    expect(failures).toEqual([
      ['tools/call refuse', SpanKind.SERVER, 'tool_error', SpanStatusCode.ERROR],
      ['tools/call refuse', SpanKind.CLIENT, 'tool_error', SpanStatusCode.ERROR],
      ['tools/call explode', SpanKind.SERVER, 'tool_error', SpanStatusCode.ERROR],
      ['tools/call explode', SpanKind.CLIENT, 'tool_error', SpanStatusCode.ERROR],
    ]);
    expect(toolCallSpans(telemetry)[2]?.status.message).toBe('the barometer broke');
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

    const [serverSpan, clientSpan] = toolCallSpans(telemetry);
    for (const span of [serverSpan, clientSpan]) {
      expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('-32042');
      expect(span?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32042');
      expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    }
    // the JSON-RPC error message, without the 1.x client's "MCP error {code}: " prefix
    expect(clientSpan?.status.message).toMatch(/^(MCP error -32042: )?Open the consent page$/);
    expect(clientSpan?.status.message).not.toMatch(/^MCP error -32042: MCP error/);
    const [point] = await toolCallPoints(telemetry, METRIC_MCP_CLIENT_OPERATION_DURATION);
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
      const server = toolCallSpans(telemetry).find((span) => span.kind === SpanKind.SERVER);
      const clientSpan = toolCallSpans(telemetry).find((span) => span.kind === SpanKind.CLIENT);
      expect(server?.name).toBe(`tools/call ${params.name}`);
      expect(server?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
      // 2.x answers an unknown tool with a JSON-RPC error (-32602): the caller's mistake, no error of the
      // server (server-status.test.ts); everything else is an isError answer, tool_error
      const errorAnswer = sdk.name === '2.x' && rejection === 'unknown_tool';
      expect(server?.status.code).toBe(errorAnswer ? SpanStatusCode.UNSET : SpanStatusCode.ERROR);
      expect(server?.attributes).toMatchObject({
        [ATTR_MCP_METHOD_NAME]: 'tools/call',
        [ATTR_TOOL_CALL_ERROR_SOURCE]: 'model',
        [ATTR_JSONRPC_REQUEST_ID]: expect.any(String),
      });
      expect(server?.attributes[ATTR_ERROR_TYPE]).toBe(errorAnswer ? undefined : 'tool_error');
      expect(server?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe(errorAnswer ? '-32602' : undefined);
      const [point] = await toolCallPoints(telemetry, METRIC_MCP_SERVER_OPERATION_DURATION);
      expect(point?.value.count).toBe(1);
      expect(point?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
      expect(point?.attributes[ATTR_ERROR_TYPE]).toBe(errorAnswer ? undefined : 'tool_error');
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
      const points = await toolCallPoints(telemetry, name);
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
    expect(toolCallSpans(telemetry)[0]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
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
    const outcomes = toolCallSpans(telemetry).map((span) => [span.kind, span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]]);
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

    for (const span of toolCallSpans(telemetry)) {
      expect(span.attributes[ATTR_NETWORK_TRANSPORT]).toBeUndefined();
      expect(span.attributes[ATTR_SERVER_ADDRESS]).toBeUndefined();
    }
  });
});

/** A server with one tool, one resource and one prompt (no arguments: the same config on both SDK lines). */
function fullServer(sdk: SdkLine) {
  const mcp = weatherServer(sdk) as unknown as {
    registerResource(name: string, uri: string, config: object, read: (uri: URL) => unknown): unknown;
    registerPrompt(name: string, config: object, get: () => unknown): unknown;
  };
  mcp.registerResource('notes', 'file:///notes.txt', { mimeType: 'text/plain' }, (uri: URL) => ({
    contents: [{ uri: uri.href, text: 'remember the umbrella' }],
  }));
  mcp.registerPrompt('greet', { description: 'Greets' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
  }));
  return mcp as unknown as TestServer;
}

interface FullClient extends TestClient {
  listTools(): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  getPrompt(params: { name: string }): Promise<unknown>;
  ping(): Promise<unknown>;
}

const OPERATIONS = ['initialize', 'tools/list', 'resources/read', 'prompts/get greet', 'ping'];

describe.each(SDK_LINES)('MCP operations that are not tool calls, SDK $name', (sdk) => {
  async function connectedPair(listener: Parameters<typeof instrumentClient>[1]) {
    const client = instrumentClient(sdk.newClient() as never, listener) as unknown as FullClient;
    const server = instrumentServer(fullServer(sdk) as never, listener) as unknown as TestServer;
    await connectLine(sdk, server, client);
    return { client, server };
  }

  it('every operation is a CLIENT and a SERVER span {mcp.method.name} {target}, the server span the child of the client span, with jsonrpc.request.id on both; tools/call keeps its one span per side', async () => {
    const { client } = await connectedPair(telemetry.listener());
    await client.listTools();
    await client.readResource({ uri: 'file:///notes.txt' });
    await client.getPrompt({ name: 'greet' });
    await client.ping();
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    const spans = telemetry.spans();
    for (const name of [...OPERATIONS, 'notifications/initialized']) {
      const clientSpan = spans.filter((span) => span.name === name && span.kind === SpanKind.CLIENT);
      const serverSpan = spans.filter((span) => span.name === name && span.kind === SpanKind.SERVER);
      expect([name, clientSpan.length, serverSpan.length]).toEqual([name, 1, 1]);
      const [sent, handled] = [clientSpan[0], serverSpan[0]];
      expect(handled?.spanContext().traceId).toBe(sent?.spanContext().traceId);
      expect(handled?.parentSpanContext?.spanId).toBe(sent?.spanContext().spanId);
      const method = name.split(' ')[0];
      for (const span of [sent, handled]) {
        expect(span?.attributes[ATTR_MCP_METHOD_NAME]).toBe(method);
        // not tool calls: no gen_ai.* tool attributes
        expect(Object.keys(span?.attributes ?? {}).filter((key) => key.startsWith('gen_ai.tool'))).toEqual([]);
        expect(span?.attributes[ATTR_GEN_AI_OPERATION_NAME]).toBeUndefined();
        expect(span?.status.code).toBe(SpanStatusCode.UNSET);
      }
      if (method === 'notifications/initialized') {
        expect(sent?.attributes[ATTR_JSONRPC_REQUEST_ID]).toBeUndefined(); // a notification has no id
      } else {
        expect(sent?.attributes[ATTR_JSONRPC_REQUEST_ID]).toMatch(/^\d+$/);
        expect(handled?.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(sent?.attributes[ATTR_JSONRPC_REQUEST_ID]);
      }
    }
    const named = (name: string) => spans.filter((span) => span.name === name);
    // the URI is an attribute, not in the name (the conventions: high cardinality); the prompt is the target
    for (const span of named('resources/read'))
      expect(span.attributes[ATTR_MCP_RESOURCE_URI]).toBe('file:///notes.txt');
    for (const span of named('prompts/get greet')) expect(span.attributes[ATTR_GEN_AI_PROMPT_NAME]).toBe('greet');
    expect(named('tools/call weather').map((span) => span.kind)).toEqual([SpanKind.SERVER, SpanKind.CLIENT]);
    // their operation durations beside the tool call's, on both sides
    for (const metric of [METRIC_MCP_CLIENT_OPERATION_DURATION, METRIC_MCP_SERVER_OPERATION_DURATION]) {
      const methods = (await telemetry.histogramPoints(metric)).map((point) => point.attributes[ATTR_MCP_METHOD_NAME]);
      expect(methods).toEqual(
        expect.arrayContaining(['initialize', 'tools/list', 'resources/read', 'prompts/get', 'ping', 'tools/call']),
      );
    }
  }, 30_000);

  it('a user listener composed with an OpenTelemetry listener sees tool calls only; the operations get their spans', async () => {
    const seen: string[] = [];
    const recording = { beforeCall: (toolName: string) => void seen.push(toolName) };
    const { client } = await connectedPair(ToolCallListeners.composite(recording, telemetry.listener()));
    await client.listTools();
    await client.ping();
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(seen).toEqual(['weather', 'weather']); // the server's call and the client's
    expect(telemetry.spans().filter((span) => span.name === 'tools/list')).toHaveLength(2);
  }, 30_000);

  it('with a listener that is not an OpenTelemetry listener, the operations record nothing', async () => {
    const seen: string[] = [];
    const { client } = await connectedPair({ beforeCall: (toolName: string) => void seen.push(toolName) });
    await client.listTools();
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    await client.close();
    expect(seen).toEqual(['weather', 'weather']);
    expect(telemetry.spans()).toEqual([]);
    expect(await telemetry.histogramPoints(METRIC_MCP_CLIENT_OPERATION_DURATION)).toEqual([]);
    expect(await telemetry.histogramPoints(METRIC_MCP_SERVER_SESSION_DURATION)).toEqual([]);
  }, 30_000);

  it('an operation answered with a JSON-RPC error: rpc.response.status_code is its code on both sides; the client’s span is an error with it as error.type; a resource the server does not have is the caller’s mistake, no error of the server', async () => {
    const { client } = await connectedPair(telemetry.listener());
    await expect(client.readResource({ uri: 'file:///missing.txt' })).rejects.toThrow();

    const spans = telemetry.spans().filter((span) => span.name === 'resources/read');
    expect(spans.map((span) => span.kind).sort()).toEqual([SpanKind.SERVER, SpanKind.CLIENT].sort());
    const codes = spans.map((span) => span.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]);
    expect(codes[0]).toBe('-32602');
    expect(codes[1]).toBe(codes[0]);
    const sent = spans.find((span) => span.kind === SpanKind.CLIENT);
    const handled = spans.find((span) => span.kind === SpanKind.SERVER);
    expect([sent?.attributes[ATTR_ERROR_TYPE], sent?.status.code]).toEqual(['-32602', SpanStatusCode.ERROR]);
    expect([handled?.attributes[ATTR_ERROR_TYPE], handled?.status.code]).toEqual([undefined, SpanStatusCode.UNSET]);
  }, 30_000);

  it('records mcp.client.session.duration and mcp.server.session.duration once per connection, when it closes', async () => {
    const { client } = await connectedPair(telemetry.listener());
    await client.listTools();
    expect(await telemetry.histogramPoints(METRIC_MCP_CLIENT_SESSION_DURATION)).toEqual([]);

    await client.close();

    for (const metric of [METRIC_MCP_CLIENT_SESSION_DURATION, METRIC_MCP_SERVER_SESSION_DURATION]) {
      const points = await telemetry.histogramPoints(metric);
      expect(points.map((point) => point.value.count)).toEqual([1]);
      // the session's attributes: its negotiated version, never a method, a session id or a request id
      expect(Object.keys(points[0]?.attributes ?? {})).toEqual([ATTR_MCP_PROTOCOL_VERSION]);
      expect(points[0]?.attributes[ATTR_MCP_PROTOCOL_VERSION]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(points[0]?.value.buckets.boundaries).toEqual(MCP_OPERATION_DURATION_BUCKETS);
      expect((await telemetry.metric(metric))?.descriptor.unit).toBe('s');
    }
  }, 30_000);
});
