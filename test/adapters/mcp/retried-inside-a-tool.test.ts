import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { generateText, stepCountIs, tool } from 'ai';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { instrumentClient } from 'otel-tool-calls/mcp';
import {
  ATTR_MCP_METHOD_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { toolCallThenText } from '../ai-sdk/mock-model.js';
import { connectLine, SDK_LINES, type SdkLine } from './sdks.js';

/*
 * An AI SDK tool whose `execute` calls the MCP tool of the same name through an instrumented client:
 * the client's call joins the tool's `execute_tool` span (one span, one sample per call). When the
 * body retries an attempt that failed (`isError: true`) and then returns, the failure was handled:
 * the tool call's outcome is its own (success), and the failed attempt is recorded where it belongs,
 * a `tools/call` CLIENT span of its own under the tool's span, and its mcp.client.operation.duration
 * sample. When no attempt follows the failed one, the failure is the tool call's, as before.
 */

const telemetry = useTestTelemetry();

/** An MCP server (not instrumented: another process) whose `weather` fails (`isError`) the first `failures` times. */
function flakyServer(sdk: SdkLine, failures: number) {
  const server = sdk.newServer();
  let calls = 0;
  server.registerTool(
    'weather',
    { inputSchema: sdk.name === '1.x' ? { city: z.string() } : z.object({ city: z.string() }) },
    async ({ city }: { city: string }) =>
      ++calls <= failures
        ? { content: [{ type: 'text', text: 'the station did not answer' }], isError: true }
        : { content: [{ type: 'text', text: `sunny in ${city}` }] },
  );
  return server;
}

/** The tool: calls the MCP tool, once more if the first answer is an error, and returns the last answer's text. */
async function retryingTool(sdk: SdkLine, failures: number) {
  const listener = telemetry.listener();
  const { client } = await connectLine(sdk, flakyServer(sdk, failures));
  instrumentClient(client as never, listener);
  const call = (input: { city: string }) => client.callTool({ name: 'weather', arguments: input });
  const weather = tool({
    inputSchema: z.object({ city: z.string() }),
    execute: async (input) => {
      let result = await call(input);
      if (result.isError === true) result = await call(input);
      return (result.content as { text: string }[])[0]?.text;
    },
  });
  return { client, tools: wrapTools({ weather }, listener) };
}

async function run(sdk: SdkLine, failures: number) {
  const { client, tools } = await retryingTool(sdk, failures);
  try {
    const result = await generateText({
      model: toolCallThenText({ toolName: 'weather', input: { city: 'Lima' }, toolCallId: 'call-1' }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Lima?',
    });
    return result.steps[0]?.toolResults[0]?.output;
  } finally {
    await client.close();
  }
}

const toolSpans = () => telemetry.spans().filter((span) => span.name.endsWith(' weather'));
const errorIncrements = async () =>
  (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).reduce((n, point) => n + point.value, 0);

function expectFailedAttempt(attempt: ReadableSpan | undefined, tool: ReadableSpan | undefined) {
  expect(attempt?.kind).toBe(SpanKind.CLIENT);
  expect(attempt?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
  expect(attempt?.status.code).toBe(SpanStatusCode.ERROR);
  expect(attempt?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
  expect(attempt?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
}

describe.each(SDK_LINES)('an MCP call retried inside an AI SDK tool of the same name, SDK $name', (sdk) => {
  it('a failed attempt the body retried is not the tool call’s failure: the tool’s span and sample succeed, the attempt is its own CLIENT span and mcp.client.operation.duration sample', async () => {
    expect(await run(sdk, 1)).toBe('sunny in Lima');

    const spans = toolSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(['execute_tool weather', 'tools/call weather']);
    const toolSpan = spans.find((span) => span.name === 'execute_tool weather');
    expect(toolSpan?.status.code).toBe(SpanStatusCode.UNSET);
    expect(toolSpan?.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(toolSpan?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBeUndefined();
    expect(toolSpan?.events.filter((event) => event.name === 'exception')).toEqual([]);
    expect(toolSpan?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call'); // the attempt that answered joined it
    const attempt = spans.find((span) => span.name === 'tools/call weather');
    expectFailedAttempt(attempt, toolSpan);
    // within the tool call's span
    const ms = (time: [number, number] | undefined) =>
      time === undefined ? Number.NaN : time[0] * 1e3 + time[1] / 1e6;
    expect(ms(attempt?.startTime)).toBeGreaterThanOrEqual(ms(toolSpan?.startTime));
    expect(ms(attempt?.endTime)).toBeGreaterThanOrEqual(ms(attempt?.startTime));
    expect(ms(attempt?.endTime)).toBeLessThanOrEqual(ms(toolSpan?.endTime));

    const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(samples.map((point) => [point.value.count, point.attributes[ATTR_ERROR_TYPE]])).toEqual([[1, undefined]]);
    expect(await errorIncrements()).toBe(0);
    const operations = (await telemetry.histogramPoints(METRIC_MCP_CLIENT_OPERATION_DURATION)).filter(
      (point) => point.attributes[ATTR_MCP_METHOD_NAME] === 'tools/call',
    );
    expect(operations.map((point) => [point.value.count, point.attributes[ATTR_ERROR_TYPE]])).toEqual([
      [1, 'tool_error'],
      [1, undefined],
    ]);
  });

  it('a retry that fails too: the last attempt’s failure is the tool call’s (one error increment), the first attempt its own span', async () => {
    expect(await run(sdk, 2)).toBe('the station did not answer');

    const spans = toolSpans();
    const toolSpan = spans.find((span) => span.name === 'execute_tool weather');
    expect(toolSpan?.status.code).toBe(SpanStatusCode.ERROR);
    expect(toolSpan?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    expectFailedAttempt(
      spans.find((span) => span.name === 'tools/call weather'),
      toolSpan,
    );
    const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(samples.map((point) => [point.value.count, point.attributes[ATTR_ERROR_TYPE]])).toEqual([[1, 'tool_error']]);
    expect(await errorIncrements()).toBe(1);
  });
});
