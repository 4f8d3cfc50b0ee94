import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_MCP_METHOD_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const listener = telemetry.listener;

const search = functionToolCallback(
  { name: 'search', description: 'Searches the web' },
  async (q: string) => `results for ${q}`,
);

describe('execute_tool span', () => {
  it('is named `execute_tool {gen_ai.tool.name}`, INTERNAL, with the start attributes', async () => {
    await ToolCallListeners.wrap(search, listener({ agentName: 'researcher' })).call('otel', {
      toolCallId: 'call_42',
      framework: 'ai-sdk',
      attributes: { 'app.tenant': 'acme' },
    });
    const span = telemetry.span('execute_tool search');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: 'search',
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_42',
      [ATTR_GEN_AI_TOOL_DESCRIPTION]: 'Searches the web',
      [ATTR_GEN_AI_AGENT_NAME]: 'researcher',
      'app.tenant': 'acme',
    });
    expect(span.instrumentationScope.name).toBe('otel-tool-calls');
  });

  it('takes gen_ai.tool.type from the adapter attributes (extension for MCP)', async () => {
    const tool = functionToolCallback({ name: 'fs_read' }, () => 'content');
    ToolCallListeners.wrap(tool, listener()).call(
      {},
      {
        attributes: { [ATTR_GEN_AI_TOOL_TYPE]: 'extension', [ATTR_MCP_METHOD_NAME]: 'tools/call' },
      },
    );
    const span = telemetry.span('execute_tool fs_read');
    expect(span.attributes[ATTR_GEN_AI_TOOL_TYPE]).toBe('extension');
    expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
  });

  it('leaves out the call id and description when unknown', async () => {
    ToolCallListeners.wrap(
      functionToolCallback({ name: 'bare' }, () => 1),
      listener(),
    ).call(undefined);
    const span = telemetry.span('execute_tool bare');
    expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_TOOL_CALL_ID);
    expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_TOOL_DESCRIPTION);
    expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_AGENT_NAME);
  });

  it('is the child of the span active when the call starts', async () => {
    const { parent } = await telemetry.withParent(() => ToolCallListeners.wrap(search, listener()).call('q'));
    const span = telemetry.span('execute_tool search');
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  it('runs the tool body with the span active, so spans the tool creates are its children', async () => {
    const nested = functionToolCallback({ name: 'db_query' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return telemetry.tracer.startActiveSpan('SELECT users', (span) => {
        span.end();
        return 'rows';
      });
    });
    await ToolCallListeners.wrap(nested, listener()).call(undefined);
    const tool = telemetry.span('execute_tool db_query');
    const child = telemetry.span('SELECT users');
    expect(child.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
  });

  it('leaves the status unset on success', async () => {
    await ToolCallListeners.wrap(search, listener()).call('q');
    const span = telemetry.span('execute_tool search');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events).toEqual([]);
    expect(span.attributes).not.toHaveProperty(ATTR_ERROR_TYPE);
  });

  it('on failure: status ERROR with the message, error.type, outcome and an exception event', async () => {
    const error = new TypeError('bad city');
    const tool = functionToolCallback({ name: 'weather' }, async () => {
      throw error;
    });
    await expect(ToolCallListeners.wrap(tool, listener()).call(undefined)).rejects.toBe(error);
    const span = telemetry.span('execute_tool weather');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad city' });
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('TypeError');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    expect(span.events).toHaveLength(1);
    expect(span.events[0]?.name).toBe('exception');
    expect(span.events[0]?.attributes?.['exception.type']).toBe('TypeError');
    expect(span.events[0]?.attributes?.['exception.message']).toBe('bad city');
  });

  it('records no exception event when recordException is false, or for a thrown non-Error', async () => {
    const throwsError = functionToolCallback({ name: 'e' }, () => {
      throw new Error('x');
    });
    expect(() => ToolCallListeners.wrap(throwsError, listener({ recordException: false })).call(undefined)).toThrow();
    const throwsString = functionToolCallback({ name: 's' }, () => {
      throw 'plain text';
    });
    expect(() => ToolCallListeners.wrap(throwsString, listener()).call(undefined)).toThrow();
    expect(telemetry.span('execute_tool e').events).toEqual([]);
    const stringSpan = telemetry.span('execute_tool s');
    expect(stringSpan.events).toEqual([]);
    expect(stringSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: 'plain text' });
  });

  it.each([
    ['a string code', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), 'ECONNREFUSED'],
    ['a numeric code', Object.assign(new Error('http'), { code: 503 }), '503'],
    ['the name', new RangeError('out of range'), 'RangeError'],
    ['the constructor name', new (class QuotaExceeded {})(), 'QuotaExceeded'],
    ['_OTHER for a string', 'nope', '_OTHER'],
    ['_OTHER for a number', 7, '_OTHER'],
    ['_OTHER for undefined', undefined, '_OTHER'],
    ['_OTHER for a plain object, never its message', { message: 'secret token 123' }, '_OTHER'],
  ])('derives error.type from %s', (_label, thrown, expected) => {
    const tool = functionToolCallback({ name: 'failing' }, () => {
      throw thrown;
    });
    expect(() => ToolCallListeners.wrap(tool, listener()).call(undefined)).toThrow();
    expect(telemetry.span('execute_tool failing').attributes[ATTR_ERROR_TYPE]).toBe(expected);
  });

  it('ends the span exactly once per invocation, whatever happens', async () => {
    const ended: string[] = [];
    const tracked = listener({ onSpanEnd: (_span, event) => void ended.push(event.toolName) });
    const ok = ToolCallListeners.wrap(
      functionToolCallback({ name: 'ok' }, () => 1),
      tracked,
    );
    const ko = ToolCallListeners.wrap(
      functionToolCallback({ name: 'ko' }, () => {
        throw new Error('x');
      }),
      tracked,
    );
    ok.call(undefined);
    expect(() => ko.call(undefined)).toThrow();
    expect(ended).toEqual(['ok', 'ko']);
    expect(telemetry.spans().map((span) => span.name)).toEqual(['execute_tool ok', 'execute_tool ko']);
  });

  it('ends the span of a streaming tool when the stream ends', async () => {
    const stream = functionToolCallback({ name: 'stream' }, async function* () {
      yield 'a';
      yield 'b';
    });
    const chunks: unknown[] = [];
    for await (const chunk of ToolCallListeners.wrap(stream, listener()).call(undefined) as AsyncIterable<unknown>) {
      chunks.push(chunk);
      expect(telemetry.spans()).toEqual([]);
    }
    expect(chunks).toEqual(['a', 'b']);
    expect(telemetry.span('execute_tool stream').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('lets onSpanStart and onSpanEnd add attributes', async () => {
    await ToolCallListeners.wrap(
      search,
      listener({
        onSpanStart: (span, event) => span.setAttribute('app.input', String(event.toolInput)),
        onSpanEnd: (span, event) => span.setAttribute('app.result', String(event.result)),
      }),
    ).call('hooks');
    const span = telemetry.span('execute_tool search');
    expect(span.attributes['app.input']).toBe('hooks');
    expect(span.attributes['app.result']).toBe('results for hooks');
  });
});
