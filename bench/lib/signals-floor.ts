import { metrics, trace } from '@opentelemetry/api';
import { functionToolCallback, type ToolCallback } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_REPEAT_COUNT,
  METRIC_TOOL_CALL_REPEATS,
  METRIC_TOOL_CALL_RESULT_SIZE,
} from 'otel-tool-calls/semconv';
import { WEATHER_TOOL, type WeatherInput } from './tools.js';

/** Traces the floor remembers, oldest forgotten first: the listener's bound. */
const MAX_TRACES = 1024;

/**
 * The signals' floor: the async weather tool doing, by hand, what the listener's repeated calls and
 * result size add to a call, with the SDK directly, inside the call's span (the listener with the
 * signals off runs it there): the trace's calls by tool and arguments (`JSON.stringify`, a bounded
 * map of traces), `tool_call.repeat.count` on the span of a repeat and its count kept for the
 * repeats counter, and one `tool_call.result.size` sample of the result's JSON bytes. Wrapped by the
 * listener with the signals off, it records what the listener with them on records: what the
 * listener adds on top is its own cost; the floor against the listener with them off is the
 * signals' cost done by hand (the SDK's histogram sample most of it).
 */
export function signalsFloorTool(): ToolCallback<WeatherInput, Promise<number>> {
  const meter = metrics.getMeterProvider().getMeter('bench-signals-floor');
  const sizes = meter.createHistogram(METRIC_TOOL_CALL_RESULT_SIZE, { unit: 'By' });
  const byTool = { [ATTR_GEN_AI_TOOL_NAME]: WEATHER_TOOL.name };
  const traces = new Map<string, Map<string, number>>();
  let repeats = 0;
  // as the listener's: the count kept, observed at each collection
  meter
    .createObservableCounter(METRIC_TOOL_CALL_REPEATS, { unit: '{call}' })
    .addCallback((result) => result.observe(repeats, byTool));
  return functionToolCallback(WEATHER_TOOL, async (input: WeatherInput) => {
    const span = trace.getActiveSpan();
    if (span !== undefined) {
      const { traceId } = span.spanContext();
      let calls = traces.get(traceId);
      if (calls === undefined) {
        if (traces.size >= MAX_TRACES) traces.delete(traces.keys().next().value as string);
        calls = new Map();
        traces.set(traceId, calls);
      }
      const key = `${WEATHER_TOOL.name}\u0000${JSON.stringify(input)}`;
      const before = calls.get(key) ?? 0;
      calls.set(key, before + 1);
      if (before > 0) {
        span.setAttribute(ATTR_TOOL_CALL_REPEAT_COUNT, before);
        repeats++;
      }
    }
    const result = input.city.length;
    sizes.record(Buffer.byteLength(JSON.stringify(result)), byTool);
    return result;
  });
}
