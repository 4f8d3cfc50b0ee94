import { join } from 'node:path';
import { createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { toolCallHooks } from 'otel-tool-calls/claude-agent-sdk';
import { instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { recordingListener } from '../../helpers/recording-listener.js';
import { callsInTurn, runQuery } from './claude-query.js';

const telemetry = useTestTelemetry();

const toolSpans = () =>
  telemetry.spans().filter((span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'execute_tool');

describe("toolCallHooks with the Claude Agent SDK's real query() and its CLI", { timeout: 60_000 }, () => {
  it('gives a built-in tool call one execute_tool span with the tool_use id, under the caller, and its sample', async () => {
    const { parent } = await telemetry.withParent(() =>
      runQuery((home) => callsInTurn([{ name: 'Read', input: { file_path: join(home, 'notes.txt') } }]), {
        allowedTools: ['Read'],
        hooks: toolCallHooks(telemetry.listener()),
      }).then(() => undefined),
    );
    const spans = toolSpans();
    expect(spans.map((span) => span.name)).toEqual(['execute_tool Read']);
    const [span] = spans;
    expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('toolu_1');
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    const [sample] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(sample?.value.count).toBe(1);
    expect(sample?.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('Read');
  });

  it('counts a failed built-in call (PostToolUseFailure) as an error of its span and metrics', async () => {
    await runQuery((home) => callsInTurn([{ name: 'Read', input: { file_path: join(home, 'missing.txt') } }]), {
      allowedTools: ['Read'],
      hooks: toolCallHooks(telemetry.listener()),
    });
    const [span] = toolSpans();
    expect(span?.name).toBe('execute_tool Read');
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['error.type']).toBe('tool_error');
    expect(span?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => [point.value, point.attributes[ATTR_GEN_AI_TOOL_NAME]])).toEqual([[1, 'Read']]);
  });

  it("reports a failure to the model as the hook's additionalContext, in the listener's words", async () => {
    const { requests } = await runQuery(
      (home) => callsInTurn([{ name: 'Read', input: { file_path: join(home, 'missing.txt') } }]),
      { allowedTools: ['Read'], hooks: toolCallHooks(telemetry.listener({ errorPolicy: 'report' })) },
    );
    const second = JSON.stringify(requests.at(-1)?.body.messages);
    expect(second).toContain("Tool 'Read' failed:");
    expect(toolSpans()[0]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it('gives a tool of an SDK MCP server also passed to instrumentServer one span per call, its body under it', async () => {
    const add = tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
      telemetry.tracer.startSpan('add body').end();
      return { content: [{ type: 'text', text: String(a + b) }] };
    });
    const calc = createSdkMcpServer({ name: 'calc', tools: [add] });
    const listener = telemetry.listener();
    instrumentServer(calc.instance, listener);
    await runQuery(() => callsInTurn([{ name: 'mcp__calc__add', input: { a: 1, b: 2 } }]), {
      mcpServers: { calc },
      allowedTools: ['mcp__calc__add'],
      hooks: toolCallHooks(listener),
    });
    const spans = toolSpans();
    expect(spans.map((span) => [span.name, span.kind])).toEqual([['execute_tool mcp__calc__add', SpanKind.INTERNAL]]);
    const [span] = spans;
    expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('toolu_1');
    // the MCP server call's attributes are on the one span
    expect(span?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect(telemetry.span('add body').parentSpanContext?.spanId).toBe(span?.spanContext().spanId);
    const [sample] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(sample?.value.count).toBe(1);
  });

  it('counts a tool result marked as an error (an SDK MCP tool returning isError: true)', async () => {
    const failing = tool('fail', 'Always fails', {}, async () => ({
      content: [{ type: 'text', text: 'out of paper' }],
      isError: true,
    }));
    const printer = createSdkMcpServer({ name: 'printer', tools: [failing] });
    const { listener, events } = recordingListener();
    await runQuery(() => callsInTurn([{ name: 'mcp__printer__fail', input: {} }]), {
      mcpServers: { printer },
      allowedTools: ['mcp__printer__fail'],
      hooks: toolCallHooks(listener),
    });
    const errors = events.filter((event) => event.kind === 'onError');
    expect(errors).toHaveLength(1);
    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });
});
