import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { functionToolCallback, type RemoteCallInfo, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const failing = functionToolCallback({ name: 'weather' }, () => {
  throw Object.assign(new Error('Invalid params'), { code: -32602 });
});
const succeeding = functionToolCallback({ name: 'weather' }, () => 'sunny');

describe('the span shape of a remote call (ToolCallInfo.remote)', () => {
  it('without remote: execute_tool {tool}, INTERNAL, and no MCP metric', async () => {
    ToolCallListeners.wrap(succeeding, telemetry.listener()).call({});

    const span = telemetry.span('execute_tool weather');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(await telemetry.metric(METRIC_MCP_CLIENT_OPERATION_DURATION)).toBeUndefined();
    expect(await telemetry.metric(METRIC_MCP_SERVER_OPERATION_DURATION)).toBeUndefined();
  });

  it('a server-side remote call: {operation} {tool}, SERVER, jsonrpc.request.id and the described error', async () => {
    const remote: RemoteCallInfo = {
      protocol: 'mcp',
      side: 'server',
      operation: 'tools/call',
      requestId: '7',
      describeError: () => ({ type: '-32603', statusCode: '-32603', message: 'bad' }),
    };
    expect(() => ToolCallListeners.wrap(failing, telemetry.listener()).call({}, { remote })).toThrow('Invalid params');

    const span = telemetry.span('tools/call weather');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      [ATTR_JSONRPC_REQUEST_ID]: '7',
      [ATTR_ERROR_TYPE]: '-32603',
      [ATTR_RPC_RESPONSE_STATUS_CODE]: '-32603',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad' });
    const [point] = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(point?.value.count).toBe(1);
    expect(point?.attributes[ATTR_JSONRPC_REQUEST_ID]).toBeUndefined(); // never a request id in a metric
  });

  it('an MCP server call answered for the caller’s mistake (-32602): its status code, no error.type and the status unset on the span and in mcp.server.operation.duration; gen_ai.execute_tool.duration and tool_call.errors keep error.type; on the client it is an error', async () => {
    const describeError = () => ({ type: '-32602', statusCode: '-32602', message: 'Tool nowhere not found' });
    const server: RemoteCallInfo = { protocol: 'mcp', side: 'server', operation: 'tools/call', describeError };
    const client: RemoteCallInfo = { protocol: 'mcp', side: 'client', operation: 'tools/call', describeError };
    for (const remote of [server, client]) {
      expect(() => ToolCallListeners.wrap(failing, telemetry.listener()).call({}, { remote })).toThrow(
        'Invalid params',
      );
    }

    const [handled, sent] = [SpanKind.SERVER, SpanKind.CLIENT].map((kind) =>
      telemetry.spans().find((span) => span.kind === kind),
    );
    expect(handled?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32602');
    expect(handled?.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(handled?.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(handled?.events).toEqual([]); // no exception event on a span that is no error
    expect(sent?.attributes).toMatchObject({ [ATTR_ERROR_TYPE]: '-32602', [ATTR_RPC_RESPONSE_STATUS_CODE]: '-32602' });
    expect(sent?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Tool nowhere not found' });
    const [served] = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(served?.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(served?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe('-32602');
    const [clientSample] = await telemetry.histogramPoints(METRIC_MCP_CLIENT_OPERATION_DURATION);
    expect(clientSample?.attributes[ATTR_ERROR_TYPE]).toBe('-32602');
    const durations = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(durations.map((point) => [point.value.count, point.attributes[ATTR_ERROR_TYPE]])).toEqual([[2, '-32602']]);
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => [point.value, point.attributes[ATTR_ERROR_TYPE]])).toEqual([[2, '-32602']]);
  });

  it('a requestId and a described message from a peer are bounded: 256 characters, and as every error message is', () => {
    const remote: RemoteCallInfo = {
      protocol: 'mcp',
      side: 'server',
      operation: 'tools/call',
      requestId: 'r'.repeat(100_000),
      describeError: () => ({ type: '-32603', message: `${'x'.repeat(100_000)}\n    at frame (file.js:1:1)` }),
    };
    expect(() => ToolCallListeners.wrap(failing, telemetry.listener()).call({}, { remote })).toThrow('Invalid params');

    const span = telemetry.span('tools/call weather');
    expect(span.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(`${'r'.repeat(255)}…`);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: `${'x'.repeat(1023)}…` });
  });

  it.each([
    ['a side that is neither client nor server', { protocol: 'mcp', side: 'peer', operation: 'tools/call' }],
    ['an empty operation', { protocol: 'mcp', side: 'client', operation: '' }],
    [
      'getters that throw',
      Object.defineProperty({}, 'side', {
        get: () => {
          throw new Error('hostile');
        },
      }),
    ],
  ])('a malformed remote (%s) gives an in-process span, and the call runs', (_name, remote) => {
    expect(ToolCallListeners.wrap(succeeding, telemetry.listener()).call({}, { remote })).toBe('sunny');
    expect(telemetry.span('execute_tool weather').kind).toBe(SpanKind.INTERNAL);
  });

  it('a describeError that throws leaves the error its own description; links that are not span contexts are dropped', async () => {
    const remote = {
      protocol: 'mcp',
      side: 'client',
      operation: 'tools/call',
      links: [{ traceId: 'nope' }, null],
      describeError: () => {
        throw new Error('broken');
      },
    };
    expect(() => ToolCallListeners.wrap(failing, telemetry.listener()).call({}, { remote })).toThrow('Invalid params');

    const span = telemetry.span('tools/call weather');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('-32602'); // the error's own code
    expect(span.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBeUndefined();
    expect(span.status.message).toBe('Invalid params');
    expect(span.links).toEqual([]);
    const samples = async (name: string) =>
      (await telemetry.histogramPoints(name)).reduce((sum, point) => sum + point.value.count, 0);
    expect([
      await samples(METRIC_GEN_AI_EXECUTE_TOOL_DURATION),
      await samples(METRIC_MCP_CLIENT_OPERATION_DURATION),
    ]).toEqual([1, 1]);
  });
});
