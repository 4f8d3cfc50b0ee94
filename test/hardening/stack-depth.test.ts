import { type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { functionToolCallback, type ToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

/** The documented bound (docs/guarantees.md): the deepest calls that may go unrecorded. */
const UNRECORDED_AT_MOST = 64;

function countingProcessor() {
  const counts = { started: 0, ended: 0 };
  const processor: SpanProcessor = {
    onStart: () => void counts.started++,
    onEnd: () => void counts.ended++,
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  return { counts, processor };
}

describe('stack exhaustion is bounded', () => {
  it('recursion through a wrapped tool that catches the RangeError: only the deepest few dozen calls go unrecorded, and the host goes on', async () => {
    const { counts, processor } = countingProcessor();
    const listener = telemetry.listener({ tracerProvider: new TracerProvider({ spanProcessors: [processor] }) });
    let calls = 0;
    let caught: unknown;
    const recursive: ToolCallback<number, number | string> = ToolCallListeners.wrap(
      functionToolCallback({ name: 'recursive' }, (depth: number): number | string => {
        calls++;
        try {
          return recursive.call(depth + 1);
        } catch (error) {
          caught = error;
          return depth;
        }
      }),
      listener,
    );
    const reached = recursive.call(0);
    expect(caught).toBeInstanceOf(RangeError);
    expect(reached).toBeGreaterThan(100);
    // every call below the last few dozen levels of the stack is recorded: span ended and counted
    expect(counts.started - counts.ended).toBeLessThanOrEqual(UNRECORDED_AT_MOST);
    const counted = (await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION))
      .map((point) => point.value.count)
      .reduce((a, b) => a + b, 0);
    expect(calls - counted).toBeLessThanOrEqual(UNRECORDED_AT_MOST);
    // and the next call, on a normal stack, is recorded as any other
    const before = counts.ended;
    const ok = ToolCallListeners.wrap(
      functionToolCallback({ name: 'after' }, () => 'fine'),
      listener,
    );
    expect(ok.call(undefined)).toBe('fine');
    expect(counts.ended).toBe(before + 1);
  });
});
