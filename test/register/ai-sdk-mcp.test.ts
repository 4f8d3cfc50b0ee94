import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_MCP_METHOD_NAME,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, metricTotal, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/** OTLP's `SPAN_KIND_SERVER` (its enum starts at UNSPECIFIED 0, INTERNAL 1). */
const OTLP_SPAN_KIND_SERVER = 2;

describe('zero-code: the AI SDK’s own MCP client (@ai-sdk/mcp) with no telemetry code', () => {
  it('each call is one client-side span (the AI SDK tool’s, the MCP call joined) whose server span is its child; isError counted', async () => {
    const run = await runUnderRegister('ai-sdk-mcp.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('weather:content,forecast:content\n');
    const spans = toolSpans(run);
    for (const [tool, id] of [
      ['weather', 'call_1'],
      ['forecast', 'call_2'],
    ] as const) {
      const client = spans.find((span) => span.name === `execute_tool ${tool}`);
      const server = spans.find((span) => span.name === `tools/call ${tool}`);
      expect(client?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe(id);
      expect(client?.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
      expect(server?.kind).toBe(OTLP_SPAN_KIND_SERVER);
      expect(server?.traceId).toBe(client?.traceId);
      expect(server?.parentSpanId).toBe(client?.spanId);
    }
    expect(spans).toHaveLength(4);
    expect(spans.find((span) => span.name === 'execute_tool forecast')?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    expect(metricTotal(run, METRIC_MCP_CLIENT_OPERATION_DURATION)).toBe(2);
    // the failing call, counted once on each side
    expect(metricTotal(run, METRIC_TOOL_CALL_ERRORS)).toBe(2);
  });
});
