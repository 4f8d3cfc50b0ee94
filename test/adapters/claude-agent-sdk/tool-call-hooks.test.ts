import { join } from 'node:path';
import { createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { type ToolCallHooks, toolCallHooks } from 'otel-tool-calls/claude-agent-sdk';
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
import { allowWhenAllAsked, callsInTurn, runQuery, startQuery, toolTurns } from '../../helpers/claude-query.mjs';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { recordingListener } from '../../helpers/recording-listener.js';

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

/** The process-wide calls open by tool_use id (outer-tool-call.ts): what a hooks call leaves behind if it never ends. */
const openCallsByToolUseId = () =>
  (globalThis as Record<symbol, Map<string, unknown> | undefined>)[
    Symbol.for('otel-tool-calls.open-calls-by-tool-use-id')
  ]?.size ?? 0;

const TOUCH = (file: string) => ({ name: 'Bash', input: { command: `touch ${file}` } });

/** Each tool span's call id, error.type and status message, and the samples and errors counted. */
async function endedCalls() {
  const spans = toolSpans().map((span) => [
    span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
    span.attributes['error.type'],
    span.status.message,
  ]);
  const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
  const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
  return {
    spans,
    samples: samples.reduce((count, point) => count + point.value.count, 0),
    errors: errors.reduce((count, point) => count + point.value, 0),
  };
}

/** Ways a query ends with a call that no hook settles; `hooks.endOpenCalls()` follows each. */
const LEFT_OPEN: ReadonlyArray<readonly [string, (hooks: ToolCallHooks) => Promise<void>, string[]]> = [
  [
    'a denial that interrupts the query',
    async (hooks) => {
      const run = runQuery(() => callsInTurn([TOUCH('made.txt')]), {
        hooks,
        canUseTool: async () => ({ behavior: 'deny', message: 'stop here', interrupt: true }),
      });
      // the SDK ends the query with an error result
      await expect(run).rejects.toThrow();
    },
    ['toolu_1'],
  ],
  [
    'an abort while the permission is asked',
    async (hooks) => {
      const abortController = new AbortController();
      const run = runQuery(() => callsInTurn([TOUCH('made.txt')]), {
        hooks,
        abortController,
        canUseTool: () => {
          abortController.abort();
          return new Promise(() => {});
        },
      });
      await expect(run).rejects.toThrow();
    },
    ['toolu_1'],
  ],
  [
    'a loop left early',
    async (hooks) => {
      // one turn, two calls: the first denied, the second's permission asked when the loop leaves
      let asked: () => void = () => {};
      const secondAsked = new Promise<void>((resolve) => {
        asked = resolve;
      });
      const started = await startQuery(() => toolTurns([[TOUCH('a.txt'), TOUCH('b.txt')]]), {
        hooks,
        canUseTool: async (_name, input) => {
          if (String(input.command).includes('a.txt')) return { behavior: 'deny', message: 'not a' };
          asked();
          return new Promise(() => {});
        },
      });
      try {
        for await (const message of started.query) {
          if (message.type !== 'user') continue;
          await secondAsked;
          break;
        }
      } finally {
        await started.close();
      }
    },
    ['toolu_1', 'toolu_2'],
  ],
];

describe('toolCallHooks: every call ends, counted once, even when no Post hook comes', { timeout: 60_000 }, () => {
  it("ends a call the app's canUseTool denies: a failed span (permission_denied), its sample, nothing left open", async () => {
    await runQuery(() => callsInTurn([TOUCH('made.txt')]), {
      hooks: toolCallHooks(telemetry.listener()),
      canUseTool: async () => ({ behavior: 'deny', message: 'not allowed here' }),
    });

    expect(await endedCalls()).toEqual({
      spans: [['toolu_1', 'permission_denied', 'Permission denied: not allowed here']],
      samples: 1,
      errors: 1,
    });
    expect(toolSpans()[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(openCallsByToolUseId()).toBe(0);
  });

  it.each(LEFT_OPEN)(
    'endOpenCalls() ends the calls a query left open (%s): session_ended, one sample each, nothing left open',
    async (_case, leaveOpen, ids) => {
      const hooks = toolCallHooks(telemetry.listener());
      try {
        await leaveOpen(hooks);
      } finally {
        await hooks.endOpenCalls();
      }

      const ended = 'The session ended with the call still open';
      expect(await endedCalls()).toEqual({
        spans: ids.map((id) => [id, 'session_ended', ended]),
        samples: ids.length,
        errors: ids.length,
      });
      expect(openCallsByToolUseId()).toBe(0);
      // ended once: nothing is left for a second end
      await hooks.endOpenCalls();
      expect(toolSpans()).toHaveLength(ids.length);
    },
  );

  it('two concurrent queries sharing one toolCallHooks, whose calls share a tool_use id, each get their own span', async () => {
    const hooks = toolCallHooks(telemetry.listener());
    const canUseTool = allowWhenAllAsked(2);
    const [first, second] = await Promise.all(
      ['a.txt', 'b.txt'].map((file) =>
        telemetry.withParent(() => runQuery(() => callsInTurn([TOUCH(file)]), { hooks, canUseTool })),
      ),
    );

    const spans = toolSpans();
    expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.status.code])).toEqual([
      ['execute_tool Bash', 'toolu_1', SpanStatusCode.UNSET],
      ['execute_tool Bash', 'toolu_1', SpanStatusCode.UNSET],
    ]);
    // each under the span its own query runs in
    const parents = spans.map((span) => span.parentSpanContext?.spanId).sort();
    expect(parents).toEqual([first?.parent.spanContext().spanId, second?.parent.spanContext().spanId].sort());
    const [sample] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(sample?.value.count).toBe(2);
    expect(openCallsByToolUseId()).toBe(0);
  });

  it("an SDK MCP tool's call whose tool_use id two open sessions share joins neither hooks span: its body stays in its own query's trace", async () => {
    const listener = telemetry.listener();
    const hooks = toolCallHooks(listener);
    const canUseTool = allowWhenAllAsked(2);
    // each body returns once both run: both server calls start while both hooks calls are open
    let running = 0;
    let bothRunning: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      bothRunning = resolve;
    });
    const query = () => {
      const add = tool('add', 'Adds two numbers', { a: z.number() }, async ({ a }) => {
        running += 1;
        if (running === 2) bothRunning();
        await bothStarted;
        telemetry.tracer.startSpan('add body').end();
        return { content: [{ type: 'text', text: String(a) }] };
      });
      const calc = createSdkMcpServer({ name: 'calc', tools: [add] });
      instrumentServer(calc.instance, listener);
      return runQuery(() => callsInTurn([{ name: 'mcp__calc__add', input: { a: 1 } }]), {
        mcpServers: { calc },
        hooks,
        canUseTool,
      });
    };
    const parents = await Promise.all([telemetry.withParent(query), telemetry.withParent(query)]);

    const traces = parents.map(({ parent }) => parent.spanContext().traceId).sort();
    const bodies = telemetry.spans().filter((span) => span.name === 'add body');
    expect(bodies.map((span) => span.spanContext().traceId).sort()).toEqual(traces);
    // each hooks span is its own query's, and no MCP server call was joined to it
    const hooksSpans = toolSpans().filter((span) => span.name === 'execute_tool mcp__calc__add');
    expect(hooksSpans.map((span) => span.spanContext().traceId).sort()).toEqual(traces);
    expect(hooksSpans.map((span) => span.attributes[ATTR_MCP_METHOD_NAME])).toEqual([undefined, undefined]);
    expect(openCallsByToolUseId()).toBe(0);
  });
});
