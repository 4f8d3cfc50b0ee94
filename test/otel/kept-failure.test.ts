import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { describe, expect, it } from 'vitest';
import { hasExceptionEvent, keepFailure } from '../../src/otel/kept-failure.js';
import { createTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = createTestTelemetry();

/** A span of "another instrumentation" that the listener recorded a failure on, then kept. */
function failedSpan(name: string) {
  const span = telemetry.tracer.startSpan(name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'ours' });
  span.setAttribute(ATTR_ERROR_TYPE, 'RangeError');
  span.recordException(new RangeError('ours'));
  keepFailure(span);
  return span;
}

describe('keepFailure: the joined span of another instrumentation keeps the failure recorded on it', () => {
  it("drops the instrumentation's later non-ERROR status and error.type, through setAttribute and setAttributes", () => {
    const span = failedSpan('kept-status');
    span.setStatus({ code: SpanStatusCode.OK });
    span.setStatus({ code: SpanStatusCode.UNSET });
    span.setAttribute(ATTR_ERROR_TYPE, 'unknown');
    span.setAttributes({ [ATTR_ERROR_TYPE]: 'unknown', 'other.key': 'kept' });
    span.setAttribute('another.key', 1);
    span.end();

    const ended = telemetry.span('kept-status');
    expect(ended.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ours' });
    expect(ended.attributes[ATTR_ERROR_TYPE]).toBe('RangeError');
    expect(ended.attributes['other.key']).toBe('kept');
    expect(ended.attributes['another.key']).toBe(1);
  });

  it('takes a later ERROR status, with its message', () => {
    const span = failedSpan('kept-error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'theirs' });
    span.end();

    expect(telemetry.span('kept-error').status).toEqual({ code: SpanStatusCode.ERROR, message: 'theirs' });
  });

  it('keeps one exception event per failure: a later recordException is dropped while the span has one', () => {
    const span = failedSpan('kept-exception');
    span.recordException(new Error('theirs'));
    span.end();

    const events = telemetry.span('kept-exception').events.filter((event) => event.name === 'exception');
    expect(events.map((event) => event.attributes?.['exception.message'])).toEqual(['ours']);
  });

  it('a span without an exception event still takes one (the listener recorded none: recordException off)', () => {
    const span = telemetry.tracer.startSpan('kept-no-exception');
    keepFailure(span);
    expect(hasExceptionEvent(span)).toBe(false);
    span.recordException(new Error('theirs'));
    expect(hasExceptionEvent(span)).toBe(true);
    span.end();

    expect(telemetry.span('kept-no-exception').events).toHaveLength(1);
  });

  it('kept twice, the span is wrapped once', () => {
    const span = failedSpan('kept-twice');
    const { setStatus } = span;
    keepFailure(span);
    expect(span.setStatus).toBe(setStatus);
    span.end();
  });

  it('a span that takes no property (frozen) is left to its instrumentation, without a throw', () => {
    const span = telemetry.tracer.startSpan('kept-frozen');
    const frozen = Object.freeze(Object.create(span)) as typeof span;
    expect(() => keepFailure(frozen)).not.toThrow();
    expect(hasExceptionEvent({ events: 'not events' } as never)).toBe(false);
    span.end();
  });
});
