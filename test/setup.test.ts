import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { otlpAttributes, startOtlpReceiver } from './helpers/otlp-receiver.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('startToolCallTelemetry', () => {
  it('exports spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT respected) and serves Prometheus metrics', async () => {
    const receiver = await startOtlpReceiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    const port = await freePort();
    const telemetry = startToolCallTelemetry({
      serviceName: 'setup-test',
      serviceVersion: '1.2.3',
      prometheusPort: port,
      prometheusHost: '127.0.0.1',
    });
    try {
      expect(telemetry.metricsUrl).toBe(`http://127.0.0.1:${port}/metrics`);
      const listener = new OpenTelemetryToolCallListener();
      const tool = functionToolCallback({ name: 'lookup' }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'ok';
      });
      await ToolCallListeners.wrap(tool, listener).call(undefined);

      const metrics = await (await fetch(telemetry.metricsUrl as string)).text();
      expect(metrics).toMatch(/gen_ai_execute_tool_duration_count\{[^}]*gen_ai_tool_name="lookup"[^}]*\} 1/);
      expect(metrics).toMatch(/target_info\{[^}]*service_name="setup-test"/);
      await telemetry.shutdown();

      const request = await receiver.waitFor('/v1/traces');
      const payload = JSON.parse(request.body.toString('utf8'));
      const resource = otlpAttributes(payload.resourceSpans[0].resource.attributes);
      expect(resource['service.name']).toBe('setup-test');
      expect(resource['service.version']).toBe('1.2.3');
      expect(payload.resourceSpans[0].scopeSpans[0].spans[0].name).toBe('execute_tool lookup');
    } finally {
      await telemetry.shutdown();
      await receiver.close();
    }
  });

  it('reads the OTEL_BSP_* variables for its batch span processor', async () => {
    const receiver = await startOtlpReceiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '10');
    const telemetry = startToolCallTelemetry({ serviceName: 'bsp-test', metrics: 'none' });
    try {
      const tool = functionToolCallback({ name: 'quick' }, () => 'ok');
      ToolCallListeners.wrap(tool, new OpenTelemetryToolCallListener()).call(undefined);
      // exported by the 10 ms schedule, long before the 5 s default and without a shutdown
      const request = await receiver.waitFor('/v1/traces', 3_000);
      expect(JSON.parse(request.body.toString('utf8')).resourceSpans[0].scopeSpans[0].spans[0].name).toBe(
        'execute_tool quick',
      );
    } finally {
      await telemetry.shutdown();
      await receiver.close();
    }
  });

  it('rejects invalid options with a TypeError naming them', () => {
    const start = startToolCallTelemetry as (options: unknown) => unknown;
    expect(() => start(undefined)).toThrow(/`options` must be an object/);
    expect(() => start({ serviceName: '' })).toThrow(/`serviceName` must be a non-empty string/);
    expect(() => start({ serviceName: 's', metrics: 'statsd' })).toThrow(/`metrics` must be/);
    expect(() => start({ serviceName: 's', traces: 'jaeger' })).toThrow(/`traces` must be/);
    expect(() => start({ serviceName: 's', prometheusPort: 70000 })).toThrow(/`prometheusPort`/);
    expect(() => start({ serviceName: 's', spanProcessors: 'batch' })).toThrow(/`spanProcessors` must be an array/);
    expect(() => start({ serviceName: 's', resourceAttributes: 'a=b' })).toThrow(
      /`resourceAttributes` must be an object/,
    );
    expect(() => start({ serviceName: 's', serviceVersion: 1 })).toThrow(/`serviceVersion` must be a string/);
    expect(() => start({ serviceName: 's', prometheusHost: 0 })).toThrow(/`prometheusHost` must be a string/);
  });
});
