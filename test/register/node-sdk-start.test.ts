import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION, METRIC_TOOL_CALL_ERRORS } from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AppRun, buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/** What a run recorded of its tool calls: each span's name, attributes and status, and the metrics' totals. */
function toolCallsOf(run: AppRun) {
  const spans = toolSpans(run)
    .map((span) => ({ name: span.name, attributes: span.attributes, status: span.status, service: span.serviceName }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const total = (name: string) => run.metrics.find((metric) => metric.name === name)?.total;
  return {
    spans,
    durations: total(METRIC_GEN_AI_EXECUTE_TOOL_DURATION),
    errors: total(METRIC_TOOL_CALL_ERRORS),
  };
}

describe('otel-tool-calls/register: OTEL_TOOL_CALLS_SDK=node-sdk starts NodeSDK itself', () => {
  it('an AI SDK app records the same tool-call spans and metrics under NodeSDK as under the lean start', async () => {
    const lean = await runUnderRegister('ai-sdk.mjs');
    const node = await runUnderRegister('ai-sdk.mjs', { env: { OTEL_TOOL_CALLS_SDK: 'node-sdk' } });
    for (const run of [lean, node]) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    expect(node.stdout).toBe(lean.stdout);
    expect(toolCallsOf(lean).spans).toHaveLength(7);
    expect(toolCallsOf(node)).toEqual(toolCallsOf(lean));
  });

  it('loads @opentelemetry/sdk-node, which the lean start does not', async () => {
    const run = await runUnderRegister('loaded-packages.cjs', { env: { OTEL_TOOL_CALLS_SDK: 'node-sdk' } });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toContain('@opentelemetry/sdk-node');
  });

  it('another value is the lean start, with a diag warning', async () => {
    const run = await runUnderRegister('loaded-packages.cjs', {
      env: { OTEL_TOOL_CALLS_SDK: 'nodesdk', OTEL_LOG_LEVEL: 'warn' },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'OTEL_TOOL_CALLS_SDK="nodesdk" is not "lean" or "node-sdk": register uses the lean start.',
    );
    expect(JSON.parse(run.stdout)).not.toContain('@opentelemetry/sdk-node');
  });
});
