import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('otel-tool-calls/register: flushing through the API, as under NodeSDK', () => {
  it("an app that flushes the providers behind the API before process.exit() (trace.getTracerProvider().getDelegate(), the meter and logger providers), as AWS Lambda's instrumentation does: its spans, metrics and log records are exported", async () => {
    const run = await runUnderRegister('flushes-through-the-api.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('hello\nflushed: 3 of 3\n');
    expect(toolSpans(run).map((span) => span.name)).toEqual(['execute_tool echo']);
    expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(1);
    expect(run.logs).toEqual(['request handled']);
  });
});
