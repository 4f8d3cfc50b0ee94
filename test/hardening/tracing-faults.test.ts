import type { Context } from '@opentelemetry/api';
import { type ReadableSpan, type Span, type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useDiagLog } from '../helpers/diag-log.js';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
const logged = useDiagLog();

/** A span processor with a bug in `onStart` or in `onEnd`. */
function faultyProcessor(fault: 'onStart' | 'onEnd'): SpanProcessor {
  return {
    onStart(_span: Span, _context: Context) {
      if (fault === 'onStart') throw new Error('processor onStart bug');
    },
    onEnd(_span: ReadableSpan) {
      if (fault === 'onEnd') throw new Error('processor onEnd bug');
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
}

const ok = functionToolCallback({ name: 'ok' }, async (n: number) => n + 1);
const fails = functionToolCallback({ name: 'fails' }, async () => {
  throw Object.assign(new Error('down'), { code: 'EDOWN' });
});

describe('metrics do not depend on tracing', () => {
  it.each(['onStart', 'onEnd'] as const)(
    'a span processor whose %s throws: every call is still measured and every failure counted',
    async (fault) => {
      const listener = telemetry.listener({
        tracerProvider: new TracerProvider({ spanProcessors: [faultyProcessor(fault)] }),
        errorPolicy: 'report',
      });
      for (let index = 0; index < 7; index++) {
        await expect(ToolCallListeners.wrap(ok, listener).call(index)).resolves.toBe(index + 1);
      }
      for (let index = 0; index < 3; index++) {
        await expect(ToolCallListeners.wrap(fails, listener).call(index)).resolves.toBe("Tool 'fails' failed: down");
      }
      const histogram = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(histogram.map((point) => point.value.count).reduce((a, b) => a + b, 0)).toBe(10);
      const counted = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
      expect(
        counted.map((point) => [
          point.attributes[ATTR_ERROR_TYPE],
          point.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME],
          point.value,
        ]),
      ).toEqual([['EDOWN', 'reported', 3]]);
      expect(logged.some((line) => line.includes(`processor ${fault} bug`) || line.includes('could not'))).toBe(true);
    },
  );
});
