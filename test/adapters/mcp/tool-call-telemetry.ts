import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/*
 * With the OpenTelemetry listener, every MCP operation has its span and operation-duration sample
 * (initialize, notifications/initialized, tools/list, ...): tests about tool calls look at the
 * `tools/call` ones only, in the order they ended.
 */

interface Telemetry {
  spans(): ReadableSpan[];
  histogramPoints(name: string): Promise<DataPoint<Histogram>[]>;
}

/** The spans of tool calls: `tools/call` (and in-process `execute_tool` spans, which have no MCP method). */
export function toolCallSpans(telemetry: Telemetry): ReadableSpan[] {
  return telemetry.spans().filter((span) => isToolCall(span.attributes['mcp.method.name']));
}

/** The points of a metric whose `mcp.method.name` is `tools/call` (or absent). */
export async function toolCallPoints(telemetry: Telemetry, name: string): Promise<DataPoint<Histogram>[]> {
  return (await telemetry.histogramPoints(name)).filter((point) => isToolCall(point.attributes['mcp.method.name']));
}

function isToolCall(method: unknown): boolean {
  return method === undefined || method === 'tools/call';
}
