import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { useTracerProvider } from './adk-telemetry.js';

// ADK only after the global provider is registered (adk-telemetry.ts)
const { FunctionTool } = await import('@google/adk');
const { toolCallsPlugin } = await import('otel-tool-calls/google-adk');
const { functionResponses } = await import('./scripted-model.js');
const { runAgent, weather } = await import('./weather-agent.js');

const telemetry = useTestTelemetry();
beforeEach(() => useTracerProvider(telemetry.tracerProvider));

const toolSpans = () => telemetry.spans().filter((span) => span.name === 'execute_tool weather');
const samples = async () =>
  (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).reduce((n, point) => n + point.value.count, 0);

describe('toolCallsPlugin: Google ADK runner plugin', () => {
  it("one span per call, ADK's own, with the call id; one sample per call; what the model reads unchanged", async () => {
    const unobserved = functionResponses(await runAgent(weather(), []));
    telemetry.spans().splice(0);

    const model = await runAgent(weather(), [toolCallsPlugin(telemetry.listener())]);

    expect(functionResponses(model)).toEqual(unobserved);
    const spans = toolSpans();
    expect(spans.map((span) => span.instrumentationScope.name)).toEqual(['gcp.vertex.agent', 'gcp.vertex.agent']);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call-1', 'call-2']);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME])).toEqual(['weather', 'weather']);
    expect(telemetry.spans().filter((span) => span.instrumentationScope.name === 'otel-tool-calls')).toEqual([]);
    expect(await samples()).toBe(2);
  });

  it("the runner's session as gen_ai.conversation.id on ADK's span", async () => {
    await runAgent(weather(), [toolCallsPlugin(telemetry.listener())], 'session-7');
    expect(toolSpans().map((span) => span.attributes[ATTR_GEN_AI_CONVERSATION_ID])).toEqual(['session-7', 'session-7']);
  });

  it("a failed call: ADK's span gets status ERROR and error.type, counted once, ADK's own error response", async () => {
    const model = await runAgent(weather(), [toolCallsPlugin(telemetry.listener())]);

    const failed = toolSpans().find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'call-2');
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: "Error in tool 'weather': no such city" });
    expect(failed?.attributes[ATTR_ERROR_TYPE]).toBe('Error');
    expect(failed?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => point.value)).toEqual([1]);
    expect(functionResponses(model).at(-1)).toEqual({
      id: 'call-2',
      name: 'weather',
      response: { error: "Error in tool 'weather': no such city" },
    });
  });

  it("errorPolicy 'report': the model reads the listener's text as the call's error response", async () => {
    const model = await runAgent(weather(), [toolCallsPlugin(telemetry.listener({ errorPolicy: 'report' }))]);

    expect(functionResponses(model).at(-1)).toEqual({
      id: 'call-2',
      name: 'weather',
      response: { error: "Tool 'weather' failed: Error in tool 'weather': no such city" },
    });
    const failed = toolSpans().find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'call-2');
    expect(failed?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a tool run by a runner without the plugin, or called directly, is not observed', async () => {
    const tool = weather();
    await runAgent(tool, [toolCallsPlugin(telemetry.listener())]);
    expect(await samples()).toBe(2);

    await runAgent(tool, []);
    await expect(tool.runAsync({ args: { city: 'Oslo' }, toolContext: undefined as never })).resolves.toEqual({
      forecast: 'sunny in Oslo',
    });

    expect(await samples()).toBe(2);
  });

  it('observes the tool in place: #private fields and state are the tool’s own', async () => {
    class CountingTool extends FunctionTool {
      #calls = 0;
      constructor() {
        super({ name: 'weather', description: 'Counts', execute: async () => ({ calls: this.calls }) });
      }
      get calls() {
        return this.#calls;
      }
      override async runAsync(request: Parameters<InstanceType<typeof FunctionTool>['runAsync']>[0]) {
        this.#calls += 1;
        return super.runAsync(request);
      }
    }
    const tool = new CountingTool();

    const model = await runAgent(tool, [toolCallsPlugin(telemetry.listener())]);

    expect(tool.calls).toBe(2);
    expect(functionResponses(model)).toEqual([
      { id: 'call-1', name: 'weather', response: { calls: 1 } },
      { id: 'call-2', name: 'weather', response: { calls: 2 } },
    ]);
    expect(await samples()).toBe(2);
  });

  it("a frozen tool is observed without being changed: ADK's own span per call, the failure on it, the responses unchanged", async () => {
    const unobserved = functionResponses(await runAgent(Object.freeze(weather()) as ReturnType<typeof weather>, []));
    const tool = Object.freeze(weather()) as ReturnType<typeof weather>;
    const { runAsync } = tool;
    const earlier = toolSpans().length;

    const model = await runAgent(tool, [toolCallsPlugin(telemetry.listener())]);

    expect(functionResponses(model)).toEqual(unobserved);
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool.runAsync).toBe(runAsync);
    const spans = toolSpans().slice(earlier);
    expect(spans.map((span) => [span.instrumentationScope.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['gcp.vertex.agent', 'call-1'],
      ['gcp.vertex.agent', 'call-2'],
    ]);
    expect(spans[1]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans[1]?.attributes[ATTR_ERROR_TYPE]).toBe('Error');
    expect(await samples()).toBe(2);
  });

  it('two plugins in one runner need their own names; a call is observed once', async () => {
    const first = toolCallsPlugin(telemetry.listener());
    expect(first.name).toBe('otel-tool-calls');
    await runAgent(weather(), [first, toolCallsPlugin(telemetry.listener(), { name: 'second' })]);
    expect(toolSpans()).toHaveLength(2);
    expect(await samples()).toBe(2);
  });
});
