import {
  type Context,
  isSpanContextValid,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { B3InjectEncoding, B3Propagator } from '@opentelemetry/propagator-b3';
import { JaegerPropagator } from '@opentelemetry/propagator-jaeger';

/*
 * The propagators an app may register (`OTEL_PROPAGATORS`), by name: the MCP adapter must carry the
 * trace context through whichever one it is, on both sides. `custom` stands for a vendor's own
 * (Sentry's `sentry-trace` is one): a key no OpenTelemetry propagator uses, `{traceId}-{spanId}`.
 */

export type PropagatorName = 'w3c' | 'b3multi' | 'b3' | 'jaeger' | 'custom';

export const PROPAGATOR_NAMES: readonly PropagatorName[] = ['w3c', 'b3multi', 'b3', 'jaeger', 'custom'];

/** The key the custom propagator reads and writes. */
export const CUSTOM_TRACE_KEY = 'example-trace';

class CustomPropagator implements TextMapPropagator {
  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const span = trace.getSpanContext(context);
    if (span === undefined || !isSpanContextValid(span)) return;
    setter.set(carrier, CUSTOM_TRACE_KEY, `${span.traceId}-${span.spanId}`);
  }
  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const value = getter.get(carrier, CUSTOM_TRACE_KEY);
    const match = typeof value === 'string' ? /^([0-9a-f]{32})-([0-9a-f]{16})$/.exec(value) : null;
    if (match === null) return context;
    return trace.setSpanContext(context, {
      traceId: match[1] as string,
      spanId: match[2] as string,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
  }
  fields(): string[] {
    return [CUSTOM_TRACE_KEY];
  }
}

export function propagatorNamed(name: PropagatorName): TextMapPropagator {
  switch (name) {
    case 'w3c':
      return new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });
    case 'b3multi':
      return new B3Propagator({ injectEncoding: B3InjectEncoding.MULTI_HEADER });
    case 'b3':
      return new B3Propagator({ injectEncoding: B3InjectEncoding.SINGLE_HEADER });
    case 'jaeger':
      return new JaegerPropagator();
    case 'custom':
      return new CustomPropagator();
  }
}

/** The keys each propagator writes into `_meta`: what a test checks crossed the boundary. */
export const PROPAGATOR_KEYS: Readonly<Record<PropagatorName, readonly string[]>> = {
  w3c: ['traceparent'],
  b3multi: ['x-b3-traceid', 'x-b3-spanid', 'x-b3-sampled'],
  b3: ['b3'],
  jaeger: ['uber-trace-id'],
  custom: [CUSTOM_TRACE_KEY],
};
