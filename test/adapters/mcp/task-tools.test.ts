import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

/*
 * Task-based tools (SDK 1.x `experimental.tasks.registerToolTask`; 2.4.0 has no task tools): the
 * tool runs as a task, and McpServer answers a tools/call without task augmentation with the task's
 * result. An `isError` result is a failed tool call (tool_error), as a normal tool's, not a refusal
 * (a call the model got wrong): the tool ran.
 */

const telemetry = useTestTelemetry();

interface TaskExtra {
  taskStore: {
    createTask(params: object): Promise<{ taskId: string }>;
    storeTaskResult(taskId: string, status: string, result: object): Promise<void>;
    getTask(taskId: string): Promise<object>;
    getTaskResult(taskId: string): Promise<object>;
  };
  taskId: string;
}

/** A task tool whose task ends with `result`, registered before or after instrumenting. */
function registerForecastTask(mcp: McpServer, result: (city: string) => object): void {
  mcp.experimental.tasks.registerToolTask(
    'forecast',
    { description: 'A forecast, as a task', inputSchema: { city: z.string() }, execution: { taskSupport: 'optional' } },
    {
      createTask: async ({ city }: { city: string }, extra: TaskExtra) => {
        const { taskId } = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 1 });
        await extra.taskStore.storeTaskResult(taskId, 'completed', result(city));
        return { task: await extra.taskStore.getTask(taskId) };
      },
      getTask: async (_args: unknown, extra: TaskExtra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args: unknown, extra: TaskExtra) => extra.taskStore.getTaskResult(extra.taskId),
    } as never,
  );
}

async function callForecast(registeredAfter: boolean, result: (city: string) => object) {
  const mcp = new McpServer(
    { name: 'weather', version: '1.0.0' },
    { taskStore: new InMemoryTaskStore(), capabilities: { tasks: { requests: { tools: { call: {} } } } } },
  );
  if (!registeredAfter) registerForecastTask(mcp, result);
  instrumentServer(mcp, telemetry.listener());
  if (registeredAfter) registerForecastTask(mcp, result);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([mcp.connect(serverTransport), client.connect(clientTransport)]);
  return client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
}

const failing = (city: string) => ({ content: [{ type: 'text', text: `no forecast for ${city}` }], isError: true });

describe('MCP task tools, SDK 1.x', () => {
  it.each([
    ['registered before instrumentServer', false],
    ['registered after instrumentServer', true],
  ])(
    'a task tool (%s) whose result is isError is a failed tool call, error.type tool_error, not a refusal of the model',
    async (_when, after) => {
      const answer = await callForecast(after, failing);
      expect(answer).toMatchObject({ content: [{ type: 'text', text: 'no forecast for Oslo' }], isError: true });

      const spans = telemetry.spans().filter((span) => span.name === 'tools/call forecast');
      expect(spans.map((span) => span.kind)).toEqual([SpanKind.SERVER]);
      const [span] = spans;
      expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
      expect(span?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).not.toBe('model');
      expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no forecast for Oslo' });
      const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
      expect(
        errors.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.attributes[ATTR_ERROR_TYPE]]),
      ).toEqual([['forecast', 'tool_error']]);
    },
    30_000,
  );

  it('a task tool whose result is not an error is a successful tool call', async () => {
    const answer = await callForecast(false, (city) => ({ content: [{ type: 'text', text: `sunny in ${city}` }] }));
    expect(answer).toMatchObject({ content: [{ type: 'text', text: 'sunny in Oslo' }] });
    const [span] = telemetry.spans().filter((found) => found.name === 'tools/call forecast');
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    const durations = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(durations.map((point) => point.value.count)).toEqual([1]);
  }, 30_000);
});
