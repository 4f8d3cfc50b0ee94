import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { context, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  OpenTelemetryToolCallListener,
} from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = tracerProvider.getTracer('test');
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});

afterAll(async () => {
  context.disable();
  await tracerProvider.shutdown();
});

beforeEach(() => exporter.reset());

function spanNamed(name: string): ReadableSpan {
  const matches = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(matches, `exactly one span named '${name}'`).toHaveLength(1);
  return matches[0] as ReadableSpan;
}

const search = tool(
  async ({ query }) =>
    // LangChain runs the function inside its own AsyncLocalStorage: the OpenTelemetry context must survive it
    tracer.startActiveSpan('GET /search', async (span) => {
      span.end();
      return `3 results for ${query}`;
    }),
  { name: 'search', description: 'Searches the docs', schema: z.object({ query: z.string() }) },
);

describe('wrapTools (LangChain) with the OpenTelemetry listener', () => {
  it('traces a ToolCall as an execute_tool span under the caller, with the call id, and the tool body under it', async () => {
    const [wrapped] = wrapTools([search], new OpenTelemetryToolCallListener({ tracerProvider }));

    const message = await tracer.startActiveSpan('agent run', async (span) => {
      try {
        return await wrapped.invoke({ name: 'search', args: { query: 'otel' }, id: 'call_1', type: 'tool_call' });
      } finally {
        span.end();
      }
    });

    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.content).toBe('3 results for otel');
    const toolSpan = spanNamed('execute_tool search');
    expect(toolSpan.parentSpanContext?.spanId).toBe(spanNamed('agent run').spanContext().spanId);
    expect(spanNamed('GET /search').parentSpanContext?.spanId).toBe(toolSpan.spanContext().spanId);
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
    const [wrapped] = wrapTools([broken], new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' }));

    const message = await wrapped.invoke({ name: 'broken', args: { query: 'x' }, id: 'call_2', type: 'tool_call' });

    expect(message.content).toBe("Tool 'broken' failed: bad index");
    expect(message.tool_call_id).toBe('call_2');
    const toolSpan = spanNamed('execute_tool broken');
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
    const [wrapped] = wrapTools([broken], new OpenTelemetryToolCallListener({ tracerProvider }));

    await expect(wrapped.invoke({ query: 'x' })).rejects.toBe(failure);
    expect(spanNamed('execute_tool broken').attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
  });
});
