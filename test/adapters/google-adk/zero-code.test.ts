import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';
import { ATTR_GEN_AI_TOOL_CALL_ID, METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { useTracerProvider } from './adk-telemetry.js';

// ADK only after the global provider is registered (adk-telemetry.ts)
const adk = await import('@google/adk');
const { toolCallsPlugin } = await import('otel-tool-calls/google-adk');
const { functionResponses } = await import('./scripted-model.js');
const { runAgent, weather } = await import('./weather-agent.js');

const telemetry = useTestTelemetry();
let instrumentation: ToolCallsInstrumentation;
let unpatch = () => {};

beforeEach(() => {
  useTracerProvider(telemetry.tracerProvider);
  instrumentation = new ToolCallsInstrumentation({ enabled: false, errorPolicy: 'report' });
  instrumentation.setTracerProvider(telemetry.tracerProvider);
  instrumentation.setMeterProvider(telemetry.meterProvider);
  instrumentation.enable();
  // the instrumentation's patch of `@google/adk`, applied as InstrumentationBase applies it
  const definition = instrumentation
    .getModuleDefinitions()
    .find((candidate) => candidate.name === '@google/adk' && candidate.supportedVersions[0] !== '*');
  definition?.patch?.(adk);
  unpatch = () => definition?.unpatch?.(adk);
});
afterEach(() => {
  unpatch();
  instrumentation.disable();
});

const samples = async () =>
  (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).reduce((n, point) => n + point.value.count, 0);

describe('zero-code: Google ADK', () => {
  it("a runner with no plugin: each call is ADK's own span, with the call id, and the configured policy applies", async () => {
    const model = await runAgent(weather(), []);

    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool weather');
    expect(spans.map((span) => [span.instrumentationScope.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['gcp.vertex.agent', 'call-1'],
      ['gcp.vertex.agent', 'call-2'],
    ]);
    expect(await samples()).toBe(2);
    expect(functionResponses(model).at(-1)).toEqual({
      id: 'call-2',
      name: 'weather',
      response: { error: "Tool 'weather' failed: Error in tool 'weather': no such city" },
    });
  });

  it("with the app's own toolCallsPlugin too, a call is observed once", async () => {
    await runAgent(weather(), [toolCallsPlugin(telemetry.listener())]);

    expect(telemetry.spans().filter((span) => span.name === 'execute_tool weather')).toHaveLength(2);
    expect(await samples()).toBe(2);
  });

  it("a frozen tool is observed without being changed, in ADK's own span", async () => {
    const tool = Object.freeze(weather()) as ReturnType<typeof weather>;
    const { runAsync } = tool;

    await runAgent(tool, []);

    expect(tool.runAsync).toBe(runAsync);
    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool weather');
    expect(spans.map((span) => [span.instrumentationScope.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['gcp.vertex.agent', 'call-1'],
      ['gcp.vertex.agent', 'call-2'],
    ]);
    expect(await samples()).toBe(2);
  });
});
