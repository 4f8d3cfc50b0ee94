import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useDiagLog } from '../../helpers/diag-log.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { recordingListener } from '../../helpers/recording-listener.js';
import { connectLine, type LowLevelServer, SDK_LINES, type SdkLine, type ToolsCallHandler } from './sdks.js';
import { toolCallSpans } from './tool-call-telemetry.js';

/*
 * A low-level `Server` that no McpServer owns (a server written on `setRequestHandler`, as fastmcp
 * builds one per session): its `tools/call` handler is the tool. On each SDK line, with its real
 * Server and Client over the in-memory transport.
 */

const telemetry = useTestTelemetry();

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** The weather tools, as a `tools/call` handler written by hand dispatches them. */
function weatherHandler(sdk: SdkLine): ToolsCallHandler {
  return async (request) => {
    const { name, arguments: args } = request.params;
    if (name === 'weather') return text(`sunny in ${String(args?.city)}`);
    if (name === 'refuse') return { ...text('no forecast'), isError: true };
    if (name === 'explode') throw new RangeError('the barometer broke');
    throw sdk.protocolError(-32601, `Unknown tool: ${name}`);
  };
}

function lowLevelWeather(sdk: SdkLine): LowLevelServer {
  const server = sdk.newLowLevelServer();
  sdk.onToolsList(server, ['weather', 'refuse', 'explode']);
  sdk.onToolsCall(server, weatherHandler(sdk));
  return server;
}

const serverSpans = () => toolCallSpans(telemetry).filter((span) => span.kind === SpanKind.SERVER);

// what diag says at warn level and above, each test's own
const warnings = useDiagLog();

describe.each(SDK_LINES)('instrumentServer on a low-level Server, SDK $name', (sdk) => {
  it('observes its tools/call handler as the tool: one SERVER span per call, the child of the client span', async () => {
    const listener = telemetry.listener();
    const server = instrumentServer(lowLevelWeather(sdk) as never, listener) as LowLevelServer;
    const client = sdk.newClient();
    instrumentClient(client as never, listener);
    const { sent } = await connectLine(sdk, server, client);

    expect(await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).toEqual(text('sunny in Oslo'));

    const [clientSpan] = toolCallSpans(telemetry).filter((span) => span.kind === SpanKind.CLIENT);
    const [serverSpan, ...more] = serverSpans();
    expect(more).toEqual([]);
    expect(serverSpan?.name).toBe('tools/call weather');
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
    expect(serverSpan?.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: 'weather',
      [ATTR_GEN_AI_TOOL_TYPE]: 'extension',
      [ATTR_MCP_METHOD_NAME]: 'tools/call',
      [ATTR_JSONRPC_REQUEST_ID]: sent[0]?.id,
      [ATTR_MCP_PROTOCOL_VERSION]: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(serverSpan?.status.code).toBe(SpanStatusCode.UNSET);
    // every other operation as an McpServer's: initialize and the rest, each a SERVER span of its own
    const operations = telemetry.spans().filter((span) => span.kind === SpanKind.SERVER);
    expect(operations.map((span) => span.name)).toEqual(
      expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/call weather']),
    );
    const samples = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(
      samples
        .filter((point) => point.attributes[ATTR_MCP_METHOD_NAME] === 'tools/call')
        .map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value.count]),
    ).toEqual([['weather', 1]]);
  });

  it('observes a server instrumented after connect, and a tools/call handler set after instrumentServer', async () => {
    const listener = recordingListener();
    const server = sdk.newLowLevelServer();
    const { client } = await connectLine(sdk, server);
    instrumentServer(server as never, listener); // after connect, before the app sets its handler
    sdk.onToolsCall(server, weatherHandler(sdk));

    expect(await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).toEqual(text('sunny in Oslo'));

    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(listener.events[0]).toMatchObject({
      toolName: 'weather',
      toolInput: { city: 'Oslo' },
      call: { framework: 'mcp', remote: { side: 'server', operation: 'tools/call', requestId: expect.any(String) } },
    });
  });

  it("a failure is the handler's answer: isError is tool_error, a thrown error the JSON-RPC code the client gets", async () => {
    const listener = telemetry.listener();
    const server = instrumentServer(lowLevelWeather(sdk) as never, listener) as LowLevelServer;
    const { client } = await connectLine(sdk, server);

    expect(await client.callTool({ name: 'refuse', arguments: {} })).toMatchObject({ isError: true });
    await expect(client.callTool({ name: 'explode', arguments: {} })).rejects.toMatchObject({ code: -32603 });

    const [refused, exploded] = serverSpans();
    expect(refused?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    expect(refused?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no forecast' });
    expect(exploded?.attributes).toMatchObject({
      [ATTR_ERROR_TYPE]: '-32603',
      [ATTR_RPC_RESPONSE_STATUS_CODE]: '-32603',
    });
    expect(exploded?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'the barometer broke' });
  });

  it("an unknown tool answered -32601 is the caller's mistake: no error of the server span, the model's error in tool_call.errors", async () => {
    const listener = telemetry.listener();
    const server = instrumentServer(lowLevelWeather(sdk) as never, listener) as LowLevelServer;
    const { client } = await connectLine(sdk, server);

    await expect(client.callTool({ name: 'madeup', arguments: {} })).rejects.toMatchObject({ code: -32601 });

    const [span] = serverSpans();
    expect(span?.name).toBe('tools/call madeup');
    expect(span?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32601');
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(
      errors.map((point) => [point.attributes[ATTR_ERROR_TYPE], point.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]]),
    ).toEqual([['-32601', 'model']]);
  });

  it('tool names a client makes up are one metric series, _unknown, as an McpServer makes them', async () => {
    const listener = telemetry.listener();
    const server = instrumentServer(lowLevelWeather(sdk) as never, listener) as LowLevelServer;
    const { client } = await connectLine(sdk, server);

    for (const name of ['madeup-1', 'madeup-2', 'madeup-3']) {
      await expect(client.callTool({ name, arguments: {} })).rejects.toMatchObject({ code: -32601 });
    }
    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    // the spans keep the names sent
    expect(serverSpans().map((span) => span.name)).toEqual([
      'tools/call madeup-1',
      'tools/call madeup-2',
      'tools/call madeup-3',
      'tools/call weather',
    ]);
    for (const metric of [METRIC_GEN_AI_EXECUTE_TOOL_DURATION, METRIC_MCP_SERVER_OPERATION_DURATION]) {
      const points = (await telemetry.histogramPoints(metric)).filter(
        (point) => point.attributes[ATTR_MCP_METHOD_NAME] !== 'initialize' && point.attributes[ATTR_GEN_AI_TOOL_NAME],
      );
      const counts = Object.fromEntries(
        points.map((point) => [String(point.attributes[ATTR_GEN_AI_TOOL_NAME]), point.value.count]),
      );
      expect(counts).toEqual({ _unknown: 3, weather: 1 });
    }
  });

  it("with 'report', a thrown error reaches the client as an isError result with the listener's text", async () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const server = instrumentServer(lowLevelWeather(sdk) as never, listener) as LowLevelServer;
    const { client } = await connectLine(sdk, server);

    expect(await client.callTool({ name: 'explode', arguments: {} })).toEqual({
      ...text("Tool 'explode' failed: the barometer broke"),
      isError: true,
    });
    expect(serverSpans()[0]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it('an McpServer and its own low-level Server are one server: instrumented through both, one span per call', async () => {
    for (const order of ['McpServer first', 'low-level Server first'] as const) {
      const listener = telemetry.listener();
      const mcp = sdk.newServer();
      mcp.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }: { city: string }) =>
        text(`sunny in ${city}`),
      );
      const own = (mcp as unknown as { server: object }).server;
      if (order === 'McpServer first') {
        instrumentServer(mcp as never, listener);
        instrumentServer(own as never, listener);
      } else {
        instrumentServer(own as never, listener);
        instrumentServer(mcp as never, listener);
      }
      const { client } = await connectLine(sdk, mcp);
      expect(await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).toMatchObject(
        text('sunny in Oslo'),
      );
      await client.close();
    }
    expect(serverSpans().map((span) => span.name)).toEqual(['tools/call weather', 'tools/call weather']);
    const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(samples.reduce((count, point) => count + point.value.count, 0)).toBe(2);
  });

  it('instrumenting it again with another listener is a no-op, said on diag', async () => {
    const first = recordingListener();
    const second = recordingListener();
    const server = lowLevelWeather(sdk);
    instrumentServer(server as never, first);
    instrumentServer(server as never, second);
    const { client } = await connectLine(sdk, server);

    await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

    expect(first.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(second.events).toEqual([]);
    expect(warnings.join('\n')).toMatch(/already instrumented; the new listener is ignored/);
  });
});

describe('instrumentServer: what it takes', () => {
  it('a Server whose request handlers cannot be read is left alone, and diag says so', () => {
    // a Server of another shape: its methods, but no handler Map where the SDK keeps it
    const server = {
      setRequestHandler() {},
      getClientCapabilities() {},
      connect: async () => {},
    };
    expect(instrumentServer(server, recordingListener())).toBe(server);
    expect(warnings.join('\n')).toMatch(
      /request handlers of this MCP Server cannot be read.*its tool calls are not observed/,
    );
  });

  it('a value that is neither an McpServer nor a low-level Server is a TypeError that names both', () => {
    const client = SDK_LINES[0]?.newClient();
    expect(() => instrumentServer(client as never, recordingListener())).toThrow(
      /`server` must be an McpServer or a low-level MCP Server, got/,
    );
  });
});
