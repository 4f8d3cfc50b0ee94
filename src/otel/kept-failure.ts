import {
  type Attributes,
  type AttributeValue,
  type Exception,
  type Span,
  type SpanStatus,
  SpanStatusCode,
  type TimeInput,
} from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from './stable-semconv.js';

/**
 * Makes the span of another instrumentation that a failed call joined keep the failure recorded on
 * it: an instrumentation that sets its span's status and attributes only when its own operation
 * ends would overwrite it. Mastra's OTel bridge does: for a failure the listener reported (a return
 * value, for Mastra) it sets status OK, and for a thrown one `error.type` `unknown`, and it records
 * the exception again. So, on this one span: a later status that is not ERROR is dropped (an ERROR
 * is taken, with its message), so is a later `error.type`, and so is a later exception while the
 * span has one (one exception event per failure). The span's own methods do the rest, as they would.
 */
export function keepFailure(span: Span): void {
  try {
    // a second failure joined to the span (a tool observed by two layers): kept once, not wrapped twice
    if ((span as { [KEPT]?: true })[KEPT] === true) return;
    define(span, KEPT, true);
    const { setStatus, setAttribute, setAttributes, recordException } = span;
    define(span, 'setStatus', function keptStatus(this: Span, status: SpanStatus) {
      return status?.code === SpanStatusCode.ERROR ? setStatus.call(this, status) : this;
    });
    define(span, 'setAttribute', function keptAttribute(this: Span, key: string, value: AttributeValue) {
      return key === ATTR_ERROR_TYPE ? this : setAttribute.call(this, key, value);
    });
    define(span, 'setAttributes', function keptAttributes(this: Span, attributes: Attributes) {
      if (attributes === null || typeof attributes !== 'object' || !(ATTR_ERROR_TYPE in attributes)) {
        return setAttributes.call(this, attributes);
      }
      const { [ATTR_ERROR_TYPE]: _dropped, ...rest } = attributes;
      return setAttributes.call(this, rest);
    });
    define(span, 'recordException', function keptException(this: Span, exception: Exception, time?: TimeInput) {
      if (!hasExceptionEvent(this)) recordException.call(this, exception, time);
    });
  } catch {
    // a span that takes no property (frozen, a Proxy): its instrumentation has the last word
  }
}

/**
 * Whether the span has an exception event already: its instrumentation recorded the failure before
 * the listener learnt of it (Genkit does, before its middleware sees the outcome), and the
 * listener's own would be a second. The SDK's spans keep their events in a public `events` array;
 * a span whose events cannot be read has none, as far as this goes.
 */
export function hasExceptionEvent(span: Span): boolean {
  try {
    const { events } = span as { events?: unknown };
    return Array.isArray(events) && events.some((event) => (event as { name?: unknown } | null)?.name === 'exception');
  } catch {
    return false;
  }
}

const KEPT = Symbol('otel-tool-calls.kept-failure');

function define(span: Span, key: string | symbol, value: unknown): void {
  Object.defineProperty(span, key, { value, writable: true, configurable: true, enumerable: false });
}
