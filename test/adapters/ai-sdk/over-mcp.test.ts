import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { generateText, stepCountIs, tool } from 'ai';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { instrumentClient } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connect } from '../mcp/connect.js';
import { toolCallThenText } from './mock-model.js';

const telemetry = useTestTelemetry();

/** An MCP server (not instrumented: it stands for another process) with a working and a failing tool. */
function weatherServer() {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [{ type: 'text', text: `sunny in ${city}` }],
  }));
  server.registerTool('forecast', { inputSchema: { city: z.string() } }, async () => ({
    content: [{ type: 'text', text: 'no forecast today' }],
    isError: true,
  }));
  return server;
}

/** AI SDK tools whose `execute` calls the MCP tool of the same name through an instrumented client. */
async function toolsOverMcp() {
  const listener = telemetry.listener({ errorPolicy: 'report' });
  const { client } = await connect(weatherServer());
  instrumentClient(client, listener);
  const viaMcp = (name: string) =>
    tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async (input) => {
        const result = await client.callTool({ name, arguments: input });
        return (result.content as { text: string }[])[0]?.text;
      },
    });
  return { client, tools: wrapTools({ weather: viaMcp('weather'), forecast: viaMcp('forecast') }, listener) };
}

describe('an AI SDK tool that calls an MCP tool through an instrumented client', () => {
  it('is one execute_tool span, with the MCP attributes on it, and one histogram sample', async () => {
    const { client, tools } = await toolsOverMcp();
    try {
      const result = await generateText({
        model: toolCallThenText({ toolName: 'weather', input: { city: 'Lima' }, toolCallId: 'call-1' }),
        tools,
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Lima?',
      });
      expect(result.steps[0]?.toolResults[0]?.output).toBe('sunny in Lima');
    } finally {
      await client.close();
    }

    const spans = telemetry.spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(spans.map((span) => span.name)).toEqual(['execute_tool weather']);
    expect(spans[0]?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call-1');
    expect(spans[0]?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points.reduce((n, point) => n + point.value.count, 0)).toBe(1);
  });

  it('an isError result is one error on that span and one increment', async () => {
    const { client, tools } = await toolsOverMcp();
    try {
      await generateText({
        model: toolCallThenText({ toolName: 'forecast', input: { city: 'Lima' }, toolCallId: 'call-2' }),
        tools,
        stopWhen: stepCountIs(3),
        prompt: 'Forecast for Lima?',
      });
    } finally {
      await client.close();
    }

    const spans = telemetry.spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(spans).toHaveLength(1);
    expect(spans[0]?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    expect(spans[0]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => point.value)).toEqual([1]);
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points.reduce((n, point) => n + point.value.count, 0)).toBe(1);
  });
});
