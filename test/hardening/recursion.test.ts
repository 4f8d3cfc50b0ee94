import { Agent, tool as agentTool, run } from '@openai/agents';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { generateText, stepCountIs, tool } from 'ai';
import { functionToolCallback, type ToolCallback, ToolCallListeners, type ToolContext } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { wrapTool } from 'otel-tool-calls/openai-agents';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallThenText } from '../adapters/ai-sdk/mock-model.js';
import { FunctionCallThenEcho } from '../adapters/openai-agents/scripted-model.js';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const toolSpans = () => telemetry.spans().filter((span) => span.name === 'execute_tool countdown');
const samples = async () =>
  (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).reduce((n, point) => n + point.value.count, 0);
const errorCount = async () =>
  (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).reduce((n, point) => n + point.value, 0);

/** A tool that calls itself down to 0, passing its own toolContext (so its call id) on; 0 fails, and is handled. */
function countdown(): ToolCallback<number, Promise<string>> {
  let self: ToolCallback<number, Promise<string>>;
  const body = async (n: number, toolContext?: ToolContext): Promise<string> => {
    if (n === 0) throw new RangeError('lift-off');
    try {
      return `${n},${await self.call(n - 1, toolContext)}`;
    } catch {
      return `${n},handled`;
    }
  };
  self = ToolCallListeners.wrap(functionToolCallback({ name: 'countdown' }, body), telemetry.listener());
  return self;
}

describe('recursion is never merged: a tool that calls itself gets a span and a sample per invocation', () => {
  it('passing its own call id on: each invocation its span, a child of the one that made it', async () => {
    expect(await countdown().call(2, { toolCallId: 'call_1' })).toBe('2,1,handled');

    const spans = toolSpans();
    expect(spans).toHaveLength(3);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_1', 'call_1', 'call_1']);
    // ended innermost first: each the child of the next
    expect(spans[0]?.parentSpanContext?.spanId).toBe(spans[1]?.spanContext().spanId);
    expect(spans[1]?.parentSpanContext?.spanId).toBe(spans[2]?.spanContext().spanId);
    expect(await samples()).toBe(3);
  });

  it('a handled inner failure never marks the outer call failed', async () => {
    await countdown().call(2, { toolCallId: 'call_1' });

    const [innermost, middle, outer] = toolSpans();
    expect(innermost?.status.code).toBe(SpanStatusCode.ERROR);
    expect(middle?.status.code).toBe(SpanStatusCode.UNSET);
    expect(outer?.status.code).toBe(SpanStatusCode.UNSET);
    expect(await errorCount()).toBe(1);
  });

  it("inside another instrumentation's execute_tool span (joined): the recursive call still gets its own", async () => {
    const theirs = telemetry.tracer.startSpan('execute_tool countdown', {
      attributes: {
        [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
        [ATTR_GEN_AI_TOOL_NAME]: 'countdown',
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
      },
    });
    const text = await context.with(trace.setSpan(context.active(), theirs), () =>
      countdown().call(1, { toolCallId: 'call_1' }),
    );
    theirs.end();

    expect(text).toBe('1,handled');
    // theirs (joined by the first invocation) and one span for the recursive one
    expect(toolSpans()).toHaveLength(2);
    expect(await samples()).toBe(2);
    expect(await errorCount()).toBe(1);
    const ours = toolSpans().find((span) => span.instrumentationScope.name === 'otel-tool-calls');
    expect(ours?.parentSpanContext?.spanId).toBe(theirs.spanContext().spanId);
  });

  it('an AI SDK tool that calls itself through the wrapped tools, in a real generateText loop', async () => {
    const tools = wrapTools(
      {
        countdown: tool({
          inputSchema: z.object({ n: z.number() }),
          execute: async ({ n }, options): Promise<string> =>
            n === 0 ? 'lift-off' : `${n},${await tools.countdown.execute?.({ n: n - 1 }, options)}`,
        }),
      },
      telemetry.listener(),
    );
    const result = await generateText({
      model: toolCallThenText({ toolName: 'countdown', input: { n: 2 }, toolCallId: 'call_1' }),
      tools,
      stopWhen: stepCountIs(2),
      prompt: 'count down',
    });

    expect(result.steps[0]?.toolResults[0]?.output).toBe('2,1,lift-off');
    expect(toolSpans()).toHaveLength(3);
    expect(await samples()).toBe(3);
  });

  it('a tool wrapped twice, handed the same input, is still one call: one span, one sample', async () => {
    const once = ToolCallListeners.wrap(
      functionToolCallback({ name: 'countdown' }, (n: number) => `${n}`),
      telemetry.listener(),
    );
    await ToolCallListeners.wrap(once, telemetry.listener()).call(3, { toolCallId: 'call_1' });
    expect(toolSpans()).toHaveLength(1);
    expect(await samples()).toBe(1);
  });

  it('an OpenAI Agents tool wrapped twice is one call: the inner layer is handed the arguments the outer parsed', async () => {
    const countdown = agentTool({
      name: 'countdown',
      description: 'Counts down',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => `${n}`,
    });
    const twice = wrapTool(wrapTool(countdown, telemetry.listener()), telemetry.listener());
    const model = new FunctionCallThenEcho({ name: 'countdown', arguments: { n: 3 }, callId: 'call_1' });

    const result = await run(new Agent({ name: 'Assistant', model, tools: [twice] }), 'count');

    expect(result.finalOutput).toBe('tool said: 3');
    expect(toolSpans()).toHaveLength(1);
    expect(await samples()).toBe(1);
  });
});
