import { createServer } from 'node:net';
import { ProxyTracerProvider } from '@opentelemetry/api';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION, METRIC_TOOL_CALL_ERRORS } from 'otel-tool-calls/semconv';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

/** Metrics, and a tracer provider with no SDK behind it (what `OTEL_TRACES_EXPORTER=none` leaves). */
const metricsOnly = (options: { errorPolicy?: 'report' | 'rethrow' } = {}) =>
  new OpenTelemetryToolCallListener({
    tracerProvider: new ProxyTracerProvider(),
    meterProvider: telemetry.meterProvider,
    ...options,
  });

const samples = async () =>
  (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).reduce((n, point) => n + point.value.count, 0);
const errorCount = async () =>
  (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).reduce((n, point) => n + point.value, 0);

describe('one sample per call, whether or not tracing is on', () => {
  it('a call observed by two layers with metrics but no tracer provider gives one sample', async () => {
    const tool = functionToolCallback({ name: 'weather' }, async ({ city }: { city: string }) => `sunny in ${city}`);
    const twice = ToolCallListeners.wrap(ToolCallListeners.wrap(tool, metricsOnly()), metricsOnly());

    expect(await twice.call({ city: 'Oslo' }, { toolCallId: 'call_1' })).toBe('sunny in Oslo');
    expect(await twice.call({ city: 'Bergen' }, { toolCallId: 'call_2' })).toBe('sunny in Bergen');

    expect(await samples()).toBe(2);
    expect(telemetry.spans()).toHaveLength(0);
  });

  it('a failure the inner layer reported counts once, as with tracing', async () => {
    const failing = functionToolCallback({ name: 'weather' }, async () => {
      throw new TypeError('bad city');
    });
    const twice = ToolCallListeners.wrap(
      ToolCallListeners.wrap(failing, metricsOnly({ errorPolicy: 'report' })),
      metricsOnly(),
    );

    expect(await twice.call({ city: '' })).toBe("Tool 'weather' failed: bad city");

    expect(await samples()).toBe(1);
    expect(await errorCount()).toBe(1);
  });

  it('another tool called from the body is still a call of its own', async () => {
    const geocode = ToolCallListeners.wrap(
      functionToolCallback({ name: 'geocode' }, () => 'Oslo'),
      metricsOnly(),
    );
    const weather = ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, async () => `sunny in ${geocode.call(undefined)}`),
      metricsOnly(),
    );

    await weather.call(undefined);

    const byTool = (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)).map(
      (point) => point.attributes['gen_ai.tool.name'],
    );
    expect(byTool.sort()).toEqual(['geocode', 'weather']);
  });
});

describe("startToolCallTelemetry({ traces: 'none' })", () => {
  it('counts a call observed by two layers once on its Prometheus endpoint', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const started = startToolCallTelemetry({
      serviceName: 'metrics-only',
      traces: 'none',
      prometheusPort: port,
      prometheusHost: '127.0.0.1',
    });
    try {
      const tool = functionToolCallback({ name: 'lookup' }, async () => 'ok');
      const twice = ToolCallListeners.wrap(
        ToolCallListeners.wrap(tool, new OpenTelemetryToolCallListener()),
        new OpenTelemetryToolCallListener(),
      );
      expect(await twice.call(undefined, { toolCallId: 'call_1' })).toBe('ok');

      const scraped = await (await fetch(started.metricsUrl as string)).text();
      expect(scraped).toMatch(/gen_ai_execute_tool_duration_count\{[^}]*gen_ai_tool_name="lookup"[^}]*\} 1\n/);
    } finally {
      await started.shutdown();
    }
  });
});
