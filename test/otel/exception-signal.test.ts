import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { functionToolCallback, type OpenTelemetryToolCallListenerOptions, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  EVENT_TOOL_CALL_EXCEPTION,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDiagLog } from '../helpers/diag-log.js';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
const logged = useDiagLog();
afterEach(() => {
  vi.unstubAllEnvs();
});

/** The real SDK's logger provider, keeping its records in memory. */
function inMemoryLogs() {
  const exporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
  const records = async () => {
    await loggerProvider.forceFlush();
    return exporter.getFinishedLogRecords();
  };
  return { loggerProvider, records };
}

class QuotaError extends Error {
  override name = 'QuotaError';
  code = 'QUOTA_EXCEEDED';
}

/** One failing call (a QuotaError, call id `call_7`) through a listener made with `options`. */
async function failOnce(options: OpenTelemetryToolCallListenerOptions, policy: 'report' | 'rethrow' = 'rethrow') {
  const logs = inMemoryLogs();
  const tool = functionToolCallback({ name: 'search' }, async () => {
    throw new QuotaError('quota exceeded for today');
  });
  const listener = telemetry.listener({ loggerProvider: logs.loggerProvider, errorPolicy: policy, ...options });
  const outcome = await ToolCallListeners.wrap(tool, listener)
    .call({ q: 'x' }, { toolCallId: 'call_7' })
    .catch((error: unknown) => error);
  // the last span: a test may fail more than once
  return { outcome, span: telemetry.spans().at(-1) as ReadableSpan, records: await logs.records() };
}

describe('exceptionSignal: where a failed call’s exception is recorded (core v1.44.0 deprecates the span event)', () => {
  it('by default, an exception event on the span and no log record, as before', async () => {
    const { span, records } = await failOnce({});
    expect(span.events.map((event) => event.name)).toEqual(['exception']);
    expect(span.events[0]?.attributes?.['exception.type']).toBe('QUOTA_EXCEEDED');
    expect(records).toEqual([]);
  });

  it("'logs': a tool_call.exception log record in the span's context, severity WARN, the exception, tool, call id and error.type; no span event", async () => {
    const { outcome, span, records } = await failOnce({ exceptionSignal: 'logs' });
    expect(outcome).toBeInstanceOf(QuotaError); // rethrown as it was
    expect(span.events).toEqual([]);
    expect(span.attributes['error.type']).toBe('QUOTA_EXCEEDED');
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record?.eventName).toBe(EVENT_TOOL_CALL_EXCEPTION);
    expect(record?.severityNumber).toBe(13);
    expect(record?.severityText).toBe('WARN');
    expect(record?.attributes).toEqual({
      'exception.type': 'QUOTA_EXCEEDED',
      'exception.message': 'quota exceeded for today',
      'exception.stacktrace': expect.stringContaining('QuotaError: quota exceeded for today'),
      [ATTR_GEN_AI_TOOL_NAME]: 'search',
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_7',
      'error.type': 'QUOTA_EXCEEDED',
    });
    // correlated with the call's span
    expect(record?.spanContext?.spanId).toBe(span.spanContext().spanId);
    expect(record?.spanContext?.traceId).toBe(span.spanContext().traceId);
  });

  it("'logs/dup': both, the same exception; a failure reported to the model is recorded too", async () => {
    const { outcome, span, records } = await failOnce({ exceptionSignal: 'logs/dup' }, 'report');
    expect(outcome).toBe("Tool 'search' failed: quota exceeded for today");
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    expect(span.events.map((event) => event.attributes?.['exception.message'])).toEqual(['quota exceeded for today']);
    expect(records.map((record) => record.attributes['exception.message'])).toEqual(['quota exceeded for today']);
  });

  it('recordException: false records neither; a thrown non-Error neither, as for the span event', async () => {
    expect((await failOnce({ exceptionSignal: 'logs', recordException: false })).records).toEqual([]);
    const logs = inMemoryLogs();
    const tool = functionToolCallback({ name: 'plain' }, () => {
      throw 'plain text';
    });
    const listener = telemetry.listener({ loggerProvider: logs.loggerProvider, exceptionSignal: 'logs' });
    expect(() => ToolCallListeners.wrap(tool, listener).call(undefined)).toThrow();
    expect(await logs.records()).toEqual([]);
  });

  it('a rejected call’s record keeps its arguments out, as its span does (capture off)', async () => {
    const logs = inMemoryLogs();
    const tool = functionToolCallback({ name: 'pay' }, () => {
      throw new TypeError('Invalid input: {"card":"4111 1111 1111 1111"}');
    });
    const listener = telemetry.listener({ loggerProvider: logs.loggerProvider, exceptionSignal: 'logs' });
    expect(() => ToolCallListeners.wrap(tool, listener).call({}, { rejection: 'invalid_input' })).toThrow();
    const [record] = await logs.records();
    expect(record?.attributes['exception.message']).toBe("Invalid input for tool 'pay'");
    expect(JSON.stringify(record?.attributes)).not.toContain('4111');
  });

  it('OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN=logs or logs/dup turns it on (a list, as the conventions’ opt-ins are); the option wins; another value is ignored with a warning', async () => {
    vi.stubEnv('OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN', 'logs');
    let failed = await failOnce({});
    expect([failed.span.events.length, failed.records.length]).toEqual([0, 1]);
    vi.stubEnv('OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN', 'http, logs/dup');
    failed = await failOnce({});
    expect([failed.span.events.length, failed.records.length]).toEqual([1, 1]);
    failed = await failOnce({ exceptionSignal: 'span-events' });
    expect([failed.span.events.length, failed.records.length]).toEqual([1, 0]);
    vi.stubEnv('OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN', 'log');
    failed = await failOnce({});
    expect([failed.span.events.length, failed.records.length]).toEqual([1, 0]);
    expect(logged.join('\n')).toContain('OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN="log" ignored');
  });
});
