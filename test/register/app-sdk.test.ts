import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION, METRIC_TOOL_CALL_RESULT_SIZE } from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, sdkLine } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/*
 * Register's SDK is registered first; the app's registrations would fail ("duplicate registration",
 * shown at OTEL_LOG_LEVEL=error) and its telemetry go to register's exporters (the receiver here).
 */
describe('otel-tool-calls/register: an app that starts its own OpenTelemetry SDK keeps it', () => {
  it("NodeSDK with the app's own exporters: its span, the tool call's span (its child) and metric, and its log go to them, none to register's", async () => {
    const run = await runUnderRegister('own-sdk.mjs', { env: { OTEL_LOG_LEVEL: 'error' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'span: execute_tool echo < handle request\n' +
        'span: handle request < root\n' +
        `metrics: ${METRIC_GEN_AI_EXECUTE_TOOL_DURATION}, ${METRIC_TOOL_CALL_RESULT_SIZE}\n` +
        'logs: request handled\n',
    );
    expect(run.spans).toEqual([]);
    expect(run.metrics.map((metric) => metric.name)).not.toContain(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(run.requests.map((request) => request.path)).not.toContain('/v1/logs');
  });

  // LangChain is not installed on the SDK 3.x line, and sdk-node 0.3xx no longer re-exports the SDK's
  // packages (`node`, `metrics`): the CommonJS case runs there as own-sdk-ai.cjs, below
  it.skipIf(sdkLine === 3)(
    "CommonJS, providers registered with the API (provider.register(), metrics.setGlobalMeterProvider): the app's, its propagator too",
    async () => {
      const run = await runUnderRegister('own-providers.cjs', { env: { OTEL_LOG_LEVEL: 'error' } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        'span: execute_tool echo < handle request\n' +
          'span: handle request < root\n' +
          `meter provider registered: true; metrics: ${METRIC_GEN_AI_EXECUTE_TOOL_DURATION}, ${METRIC_TOOL_CALL_RESULT_SIZE}\n` +
          'propagation fields: x-app-trace\n',
      );
      expect(run.spans).toEqual([]);
      expect(run.metrics.map((metric) => metric.name)).not.toContain(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    },
  );

  it.each(['require', 'import'] as const)(
    "a CommonJS AI SDK app under --%s with its own NodeSDK and propagator: its span and the tool call's, none to register's",
    async (preload) => {
      const run = await runUnderRegister('own-sdk-ai.cjs', { preload, env: { OTEL_LOG_LEVEL: 'error' } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        'span: execute_tool getWeather < handle request\n' +
          'span: handle request < root\n' +
          'propagation fields: x-app-trace\n',
      );
      expect(run.spans).toEqual([]);
    },
  );
});
