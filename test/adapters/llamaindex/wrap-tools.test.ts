import type { JSONValue } from '@llamaindex/core/global';
import type { ToolCallLLM } from '@llamaindex/core/llms';
import { type FunctionTool, tool } from '@llamaindex/core/tools';
import { agent } from '@llamaindex/workflow';
import { SpanStatusCode } from '@opentelemetry/api';
import { wrapTools } from 'otel-tool-calls/llamaindex';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spanSeconds, useTestTelemetry } from '../../helpers/otel-sdk.js';
import { recordingListener } from '../../helpers/recording-listener.js';
import { type ScriptedToolCall, ScriptedToolCallLLM } from './scripted-llm.js';

const telemetry = useTestTelemetry();

const weather = () =>
  tool({
    name: 'weather',
    description: 'Current weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `sunny in ${city}`,
  });

const forecast = () =>
  tool({
    name: 'forecast',
    description: 'Forecast of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }): Promise<JSONValue> => {
      throw new Error(`no forecast for ${city}`);
    },
  });

// biome-ignore lint/suspicious/noExplicitAny: any FunctionTool, as agent() takes them
type AnyFunctionTool = FunctionTool<any, any, any>;

/** A real `agent()` run (`@llamaindex/workflow`) with the scripted model: the text the model answered with. */
async function runAgent(tools: AnyFunctionTool[], calls: readonly ScriptedToolCall[]): Promise<string> {
  const llm = new ScriptedToolCallLLM(calls) as unknown as ToolCallLLM;
  const result = await agent({ llm, tools }).run('weather in Oslo?');
  return String(result.data.result);
}

const oslo = (id: string, name = 'weather'): ScriptedToolCall => ({ id, name, input: { city: 'Oslo' } });

describe('wrapTools on a LlamaIndex workflow agent', () => {
  it('gives one span and one duration sample per call, with the model call id, the result unchanged', async () => {
    const plain = await runAgent([weather()], [oslo('call_1'), oslo('call_2')]);

    const observed = await runAgent(wrapTools([weather()], telemetry.listener()), [oslo('call_1'), oslo('call_2')]);

    expect(observed).toBe(plain);
    expect(observed).toBe('sunny in Oslo | sunny in Oslo');
    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool weather');
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_1', 'call_2']);
    expect(spans.every((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME] === 'weather')).toBe(true);
    const [sample] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(sample?.value.count).toBe(2);
    expect(sample?.value.sum).toBeCloseTo(
      spans.reduce((sum, span) => sum + spanSeconds(span), 0),
      6,
    );
  });

  it('counts a failing tool as an error and, rethrown, leaves what the model sees as LlamaIndex makes it', async () => {
    const plain = await runAgent([forecast()], [oslo('call_3', 'forecast')]);

    const observed = await runAgent(wrapTools([forecast()], telemetry.listener()), [oslo('call_3', 'forecast')]);

    expect(observed).toBe(plain);
    expect(observed).toContain('no forecast for Oslo');
    const span = telemetry.span('execute_tool forecast');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no forecast for Oslo' });
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_3');
    const [errors] = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors?.value).toBe(1);
    expect(errors?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
  });

  it('reported: the model gets the listener text as the tool result', async () => {
    const listener = telemetry.listener({
      errorPolicy: 'report',
      formatError: (_name, error) => `sorry: ${String(error)}`,
    });

    const observed = await runAgent(wrapTools([forecast()], listener), [oslo('call_4', 'forecast')]);

    expect(observed).toBe('sorry: Error: no forecast for Oslo');
    expect(telemetry.span('execute_tool forecast').attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });
});

describe('wrapTools: sync stays sync', () => {
  const syncWeather = () =>
    tool({
      name: 'weather',
      description: 'Current weather of a city',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => `sunny in ${city}`,
    });

  it('a synchronous tool called directly returns its value synchronously, observed', () => {
    const listener = recordingListener();
    const [wrapped] = wrapTools([syncWeather()], listener);

    const result = wrapped.call({ city: 'Oslo' });

    expect(result).toBe('sunny in Oslo');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('a synchronous tool run by an agent still gets the call id, one span per call', async () => {
    const observed = await runAgent(wrapTools([syncWeather()], telemetry.listener()), [oslo('call_5'), oslo('call_6')]);

    expect(observed).toBe('sunny in Oslo | sunny in Oslo');
    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool weather');
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_5', 'call_6']);
  });
});

describe('wrapTools, observed in place', () => {
  it('reads metadata through the tool (a getter over #metadata) and leaves the original unobserved', async () => {
    const listener = recordingListener();
    const original = weather();
    const [wrapped] = wrapTools([original], listener);

    expect(wrapped.metadata).toBe(original.metadata);
    expect(await original.call({ city: 'Oslo' })).toBe('sunny in Oslo');
    expect(listener.events).toEqual([]);
    expect(await wrapped.call({ city: 'Bergen' })).toBe('sunny in Bergen');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(listener.events[0]).toMatchObject({
      toolName: 'weather',
      toolInput: { city: 'Bergen' },
      call: {
        framework: 'llamaindex',
        toolCallId: undefined,
        toolDefinition: { description: 'Current weather of a city' },
      },
    });
  });

  it('runs a tool class with #private state on the original, across calls', async () => {
    class Counter {
      #count = 0;
      get metadata() {
        return { name: 'counter', description: `counted ${this.#count}`, parameters: {} };
      }
      call(): number {
        this.#count += 1;
        return this.#count;
      }
    }
    const original = new Counter();
    const [wrapped] = wrapTools([original], recordingListener());

    expect([await wrapped.call(), await wrapped.call(), original.call()]).toEqual([1, 2, 3]);
    expect(wrapped.metadata.description).toBe('counted 3');
    expect(wrapped).toBeInstanceOf(Counter);
  });

  it('observes a tool bound with an extra argument as the tool it came from', async () => {
    const listener = recordingListener();
    const greet = tool((input: { name: string }, extra?: { greeting: string }) => `${extra?.greeting} ${input.name}`, {
      name: 'greet',
      description: 'Greets',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const [wrapped] = wrapTools([greet], listener);

    expect(await wrapped.bind({ greeting: 'hello' }).call({ name: 'Ada' })).toBe('hello Ada');
    expect(listener.events[0]).toMatchObject({ kind: 'beforeCall', toolName: 'greet' });
  });

  it('refuses what is not a LlamaIndex tool, naming it', () => {
    expect(() => wrapTools([{ metadata: { name: 'x' } }] as never, recordingListener())).toThrow(
      /`tools\[0\]` must be a LlamaIndex tool/,
    );
  });
});
