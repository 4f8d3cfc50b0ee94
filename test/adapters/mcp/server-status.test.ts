import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient, type TestServer } from './sdks.js';

/*
 * The MCP server status rule (semantic-conventions-genai #404, model/mcp/common.yaml): on the side that
 * handles a request, the JSON-RPC codes that say the caller sent a request the receiver could not serve
 * (-32700, -32600, -32601, -32602, also an unknown tool, and -32002) are not errors: the SERVER span
 * and mcp.server.operation.duration have rpc.response.status_code, no error.type, and the span status
 * is unset. The client's side is unchanged: every error code is an error there. A tool call refused
 * this way stays the model's bad call in the tool-call metrics: tool_call.errors (source model) and
 * gen_ai.execute_tool.duration keep its error.type. With the real client and server of each SDK line.
 */

const telemetry = useTestTelemetry();

interface Client extends TestClient {
  getPrompt(params: { name: string }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  request(request: { method: string; params?: object }, schema: unknown): Promise<unknown>;
}

interface Server extends TestServer {
  registerPrompt(name: string, config: object, get: () => unknown): void;
  registerResource(name: string, uri: string, config: object, read: () => unknown): void;
}

/** A tool (with a disabled one), a prompt that fails inside, a resource its callback says is missing. */
function server(sdk: SdkLine, withTools: boolean): TestServer {
  const mcp = sdk.newServer() as Server;
  if (withTools) {
    mcp.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }: { city: string }) => ({
      content: [{ type: 'text', text: `sunny in ${city}` }],
    }));
    const retired = mcp.registerTool('retired', {}, async () => ({ content: [] })) as { disable(): void };
    retired.disable();
  }
  mcp.registerPrompt('broken', { description: 'Fails inside' }, () => {
    throw Object.assign(new Error('the template store is down'), { code: -32603 });
  });
  mcp.registerResource('gone', 'doc://gone', {}, () => {
    throw Object.assign(new Error('Resource not found'), { code: -32002 });
  });
  return mcp;
}

async function connected(sdk: SdkLine, withTools = true) {
  const instrumented = instrumentServer(server(sdk, withTools) as never, telemetry.listener()) as unknown as TestServer;
  const client = instrumentClient(sdk.newClient() as never, telemetry.listener()) as unknown as Client;
  await connectLine(sdk, instrumented, client);
  return client;
}

/** What the peer answered: the error's JSON-RPC code, or the result. */
const answerOf = (promise: Promise<unknown>) =>
  promise.then(
    (result) => ({ result }),
    (error: { code?: unknown }) => ({ code: error.code }),
  );

function one(name: string, kind: SpanKind): ReadableSpan {
  const found = telemetry.spans().filter((span) => span.name === name && span.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${SpanKind[kind]} span ${name}, found ${found.length}`);
  return found[0] as ReadableSpan;
}

/** The handler's side: the status code, no error. */
function expectCallersMistake(span: ReadableSpan, code: string) {
  expect([span.name, span.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]]).toEqual([span.name, code]);
  expect([span.name, span.attributes[ATTR_ERROR_TYPE]]).toEqual([span.name, undefined]);
  expect([span.name, span.status.code]).toEqual([span.name, SpanStatusCode.UNSET]);
  expect([span.name, span.events.map((event) => event.name)]).toEqual([span.name, []]); // no exception event
}

/** The sender's side: an error, as every error answer is. */
function expectError(span: ReadableSpan, code: string) {
  expect([span.name, span.attributes[ATTR_ERROR_TYPE], span.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]]).toEqual([
    span.name,
    code,
    code,
  ]);
  expect([span.name, span.status.code]).toEqual([span.name, SpanStatusCode.ERROR]);
}

/** `metric`'s points of `method`: `[count, error.type, rpc.response.status_code]`. */
async function series(metric: string, method: string) {
  return (await telemetry.histogramPoints(metric))
    .filter((point) => point.attributes[ATTR_MCP_METHOD_NAME] === method)
    .map((point) => [
      point.value.count,
      point.attributes[ATTR_ERROR_TYPE],
      point.attributes[ATTR_RPC_RESPONSE_STATUS_CODE],
    ]);
}

describe.each(SDK_LINES)('the MCP server status rule, SDK $name', (sdk) => {
  it('the server does not count the caller’s mistakes as its errors: a tools/call to a server with no tool (-32601) is rpc.response.status_code on the SERVER span and in mcp.server.operation.duration, with no error.type and the status unset; the client’s span is an error; tool_call.errors (source model) and gen_ai.execute_tool.duration keep error.type', async () => {
    const client = await connected(sdk, false);

    expect(await answerOf(client.callTool({ name: 'weather', arguments: { city: 'Oslo' } }))).toEqual({
      code: -32601,
    });

    const handled = one('tools/call weather', SpanKind.SERVER);
    expectCallersMistake(handled, '-32601');
    expect(handled.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model'); // still the model's bad call
    expectError(one('tools/call weather', SpanKind.CLIENT), '-32601');
    expect(await series(METRIC_MCP_SERVER_OPERATION_DURATION, 'tools/call')).toEqual([[1, undefined, '-32601']]);
    expect(await series(METRIC_MCP_CLIENT_OPERATION_DURATION, 'tools/call')).toEqual([[1, '-32601', '-32601']]);
    // the tool-call metrics: the server's refusal (source model, _unknown) and the client's failed call
    const errors = (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).map((point) => [
      point.value,
      point.attributes[ATTR_GEN_AI_TOOL_NAME],
      point.attributes[ATTR_ERROR_TYPE],
      point.attributes[ATTR_TOOL_CALL_ERROR_SOURCE],
    ]);
    expect(errors).toContainEqual([1, GEN_AI_TOOL_NAME_VALUE_UNKNOWN, '-32601', 'model']);
    const durations = (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).map((point) => [
      point.attributes[ATTR_GEN_AI_TOOL_NAME],
      point.attributes[ATTR_ERROR_TYPE],
    ]);
    expect(durations).toContainEqual([GEN_AI_TOOL_NAME_VALUE_UNKNOWN, '-32601']);
  }, 30_000);

  it('a tools/call of a tool the server does not have, or has disabled: 2.x’s -32602 is no error of the server (its status code, the tool-call metrics keep it); 1.x answers with an isError result, tool_error, an error on both sides as the conventions ask of isError', async () => {
    const client = await connected(sdk);

    const unknown = await answerOf(client.callTool({ name: 'nowhere', arguments: {} }));
    const disabled = await answerOf(client.callTool({ name: 'retired', arguments: {} }));

    for (const [name, answer] of [
      ['tools/call nowhere', unknown],
      ['tools/call retired', disabled],
    ] as const) {
      const handled = one(name, SpanKind.SERVER);
      expect(handled.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
      if (sdk.name === '2.x') {
        expect(answer).toEqual({ code: -32602 });
        expectCallersMistake(handled, '-32602');
        expectError(one(name, SpanKind.CLIENT), '-32602');
      } else {
        expect(answer).toMatchObject({ result: { isError: true } });
        expect([handled.attributes[ATTR_ERROR_TYPE], handled.status.code]).toEqual([
          'tool_error',
          SpanStatusCode.ERROR,
        ]);
      }
    }
    const served = await series(METRIC_MCP_SERVER_OPERATION_DURATION, 'tools/call');
    expect(served).toEqual(sdk.name === '2.x' ? [[2, undefined, '-32602']] : [[2, 'tool_error', undefined]]);
    const modelErrors = (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS))
      .filter((point) => point.attributes[ATTR_TOOL_CALL_ERROR_SOURCE] === 'model')
      .reduce((sum, point) => sum + point.value, 0);
    expect(modelErrors).toBe(2);
  }, 30_000);

  it('the other operations: an unknown prompt and an unknown resource (-32602), a resource its callback says is missing (-32002), a method without a handler (-32601) are the status code alone on the server, errors on the client; a handler’s own failure (-32603) stays an error of the server', async () => {
    const client = await connected(sdk);

    expect(await answerOf(client.getPrompt({ name: 'nowhere' }))).toEqual({ code: -32602 });
    expect(await answerOf(client.readResource({ uri: 'doc://nowhere' }))).toEqual({ code: -32602 });
    // 2.x sends a handler's -32002 as -32602 (its wire codec); the server span keeps the code the handler threw
    const gone = await answerOf(client.readResource({ uri: 'doc://gone' }));
    expect(gone).toEqual({ code: sdk.name === '2.x' ? -32602 : -32002 });
    expect(await answerOf(client.request({ method: 'weather/forecast', params: {} }, z.object({})))).toEqual({
      code: -32601,
    });
    expect(await answerOf(client.getPrompt({ name: 'broken' }))).toEqual({ code: -32603 });

    const served = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
    expectCallersMistake(one('prompts/get nowhere', SpanKind.SERVER), '-32602');
    expectError(one('prompts/get nowhere', SpanKind.CLIENT), '-32602');
    const reads = telemetry.spans().filter((span) => span.name === 'resources/read' && span.kind === SpanKind.SERVER);
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      const code = read.attributes['mcp.resource.uri'] === 'doc://gone' ? '-32002' : '-32602';
      expectCallersMistake(read, code);
    }
    expectCallersMistake(one('_OTHER', SpanKind.SERVER), '-32601');
    expectError(one('weather/forecast', SpanKind.CLIENT), '-32601');
    // not the caller's mistake: the server's own failure
    expectError(one('prompts/get broken', SpanKind.SERVER), '-32603');
    const failures = served.filter((point) => point.attributes[ATTR_ERROR_TYPE] !== undefined);
    expect(
      failures.map((point) => [point.attributes[ATTR_MCP_METHOD_NAME], point.attributes[ATTR_ERROR_TYPE]]),
    ).toEqual([['prompts/get', '-32603']]);
    const refused = served
      .filter((point) => point.attributes[ATTR_RPC_RESPONSE_STATUS_CODE] !== undefined)
      .map((point) => [point.attributes[ATTR_MCP_METHOD_NAME], point.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]]);
    expect(refused).toEqual(
      expect.arrayContaining([
        ['prompts/get', '-32602'],
        ['resources/read', '-32602'],
        ['resources/read', '-32002'],
        ['_OTHER', '-32601'],
      ]),
    );
  }, 30_000);
});
