import { metrics, trace } from '@opentelemetry/api';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestTelemetry } from '../helpers/otel-sdk.js';

afterEach(() => {
  trace.disable();
  metrics.disable();
});

const failing = functionToolCallback({ name: 'lookup' }, () => {
  throw new Error('not found');
});

describe('with no SDK registered (a library whose host has no OpenTelemetry)', () => {
  it('still applies the error policy', () => {
    const tool = ToolCallListeners.wrap(failing, new OpenTelemetryToolCallListener({ errorPolicy: 'report' }));
    expect(tool.call(undefined)).toBe("Tool 'lookup' failed: not found");
    const rethrowing = ToolCallListeners.wrap(failing, new OpenTelemetryToolCallListener());
    expect(() => rethrowing.call(undefined)).toThrow('not found');
  });

  it('picks up an SDK registered after the listener was made and used', async () => {
    const listener = new OpenTelemetryToolCallListener();
    const tool = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, () => 'found'),
      listener,
    );
    expect(tool.call(undefined)).toBe('found');

    const telemetry = createTestTelemetry();
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    try {
      expect(tool.call(undefined)).toBe('found');
      expect(telemetry.spans().map((span) => span.name)).toEqual(['execute_tool lookup']);
      const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(points.map((point) => point.value.count)).toEqual([1]);
    } finally {
      await telemetry.shutdown();
    }
  });
});
