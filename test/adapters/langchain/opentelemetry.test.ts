import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { SpanStatusCode } from '@opentelemetry/api';
import { wrapTools } from 'otel-tool-calls/langchain';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const search = tool(
  async ({ query }) =>
    // LangChain runs the function inside its own AsyncLocalStorage: the OpenTelemetry context must survive it
    telemetry.tracer.startActiveSpan('GET /search', async (span) => {
      span.end();
      return `3 results for ${query}`;
    }),
  { name: 'search', description: 'Searches the docs', schema: z.object({ query: z.string() }) },
);

describe('wrapTools (LangChain) with the OpenTelemetry listener', () => {
  it('traces a ToolCall as an execute_tool span under the caller, with the call id, and the tool body under it', async () => {
    const [wrapped] = wrapTools([search], telemetry.listener());

    const message = await telemetry.tracer.startActiveSpan('agent run', async (span) => {
      try {
        return await wrapped.invoke({ name: 'search', args: { query: 'otel' }, id: 'call_1', type: 'tool_call' });
      } finally {
        span.end();
      }
    });

    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.content).toBe('3 results for otel');
    const toolSpan = telemetry.span('execute_tool search');
    expect(toolSpan.parentSpanContext?.spanId).toBe(telemetry.span('agent run').spanContext().spanId);
    expect(telemetry.span('GET /search').parentSpanContext?.spanId).toBe(toolSpan.spanContext().spanId);
    expect(toolSpan.attributes).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'search',
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
      [ATTR_GEN_AI_TOOL_DESCRIPTION]: 'Searches the docs',
    });
  });

  it("with errorPolicy 'report', the ToolMessage carries the formatted error and the span records it", async () => {
    const broken = tool(
      async (): Promise<string> => {
        throw new TypeError('bad index');
      },
      { name: 'broken', description: 'Always fails', schema: z.object({ query: z.string() }) },
    );
    const [wrapped] = wrapTools([broken], telemetry.listener({ errorPolicy: 'report' }));

    const message = await wrapped.invoke({ name: 'broken', args: { query: 'x' }, id: 'call_2', type: 'tool_call' });

    expect(message.content).toBe("Tool 'broken' failed: bad index");
    expect(message.tool_call_id).toBe('call_2');
    const toolSpan = telemetry.span('execute_tool broken');
    expect(toolSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad index' });
    expect(toolSpan.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it('by default rethrows the original error and records it as rethrown', async () => {
    const failure = new Error('index offline');
    const broken = tool(
      async (): Promise<string> => {
        throw failure;
      },
      { name: 'broken', description: 'Always fails', schema: z.object({ query: z.string() }) },
    );
    const [wrapped] = wrapTools([broken], telemetry.listener());

    await expect(wrapped.invoke({ query: 'x' })).rejects.toBe(failure);
    expect(telemetry.span('execute_tool broken').attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
  });
});
