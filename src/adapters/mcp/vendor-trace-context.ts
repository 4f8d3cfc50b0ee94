import { type SpanContext, TraceFlags } from '@opentelemetry/api';

/*
 * The trace context two vendors' MCP instrumentations put in `params._meta` under keys of their own,
 * not the ones a propagator writes, as their SDKs write them (read from their sources):
 *
 * - Datadog (dd-trace-js, its `@modelcontextprotocol/sdk` integration): `_meta._dd_trace_context`, an
 *   object holding what the tracer's `text_map` inject writes for the active span. In Datadog's own
 *   style: `x-datadog-trace-id`, the trace id's lower 64 bits in decimal; `x-datadog-parent-id`, the
 *   span id in decimal; `x-datadog-sampling-priority` (`1`, `2`: kept; `0`, `-1`: dropped);
 *   `x-datadog-tags`, whose `_dd.p.tid` is the trace id's upper 64 bits in hex (128-bit trace ids,
 *   the default); `x-datadog-origin`. With the default inject styles (`datadog,tracecontext,baggage`)
 *   it holds `traceparent`, `tracestate` and `baggage` too: propagation.ts hands it to the configured
 *   propagator first, and reads Datadog's style only when that finds nothing.
 * - Sentry: `sentry-trace`, `{trace id: 32 hex}-{span id: 16 hex}` and an optional `-1` / `-0`
 *   (sampled or not), beside W3C `baggage` with `sentry-*` entries (which the configured propagator
 *   reads as any baggage). What Sentry's propagator writes for an MCP client whose app runs Sentry's
 *   OpenTelemetry setup; `traceparent` only when the app opts in (`propagateTraceparent`).
 *
 * A decision left open (no sampling priority, no sampled flag) is read as sampled: the span the peer
 * sent is recorded, so the server's span has a parent to hang from.
 */

/** Where Datadog's tracer puts its carrier in `params._meta`. */
export const DATADOG_META_KEY = '_dd_trace_context';
/** Where a Sentry-traced peer puts its trace header in `params._meta`. */
export const SENTRY_TRACE_META_KEY = 'sentry-trace';

const DECIMAL_ID = /^\d{1,20}$/;
/** `_dd.p.tid=<16 hex>` among the comma-separated `key=value` tags. */
const TRACE_ID_HIGH_TAG = /(?:^|,)\s*_dd\.p\.tid=([0-9a-f]{16})\s*(?:,|$)/i;
const UINT64_MAX = 0xffff_ffff_ffff_ffffn;
/** Longest `x-datadog-tags` read (Datadog's own default bound on it is 512). */
const MAX_TAGS_LENGTH = 512;
const SENTRY_TRACE = /^[ \t]*([0-9a-f]{32})-([0-9a-f]{16})(?:-([01]))?[ \t]*$/;
const ZERO_TRACE_ID = '00000000000000000000000000000000';
const ZERO_SPAN_ID = '0000000000000000';

/** The span context of a Datadog-style carrier (`_dd_trace_context`'s `x-datadog-*` keys), if it has a valid one. */
export function datadogSpanContext(carrier: Readonly<Record<string, unknown>>): SpanContext | undefined {
  const lower = hex64OfDecimal(carrier['x-datadog-trace-id']);
  const spanId = hex64OfDecimal(carrier['x-datadog-parent-id']);
  if (lower === undefined || spanId === undefined) return undefined;
  const traceId = `${upperTraceIdOf(carrier['x-datadog-tags'])}${lower}`;
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID) return undefined;
  const priority = carrier['x-datadog-sampling-priority'];
  const dropped = typeof priority === 'string' && /^-?\d{1,3}$/.test(priority) && Number(priority) <= 0;
  return { traceId, spanId, traceFlags: dropped ? TraceFlags.NONE : TraceFlags.SAMPLED, isRemote: true };
}

/** The span context of a `sentry-trace` value, if it is a valid one. */
export function sentrySpanContext(value: unknown): SpanContext | undefined {
  if (typeof value !== 'string' || value.length > 128) return undefined;
  const match = SENTRY_TRACE.exec(value);
  if (match === null) return undefined;
  const [, traceId, spanId, sampled] = match as unknown as [string, string, string, string | undefined];
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID) return undefined;
  return { traceId, spanId, traceFlags: sampled === '0' ? TraceFlags.NONE : TraceFlags.SAMPLED, isRemote: true };
}

/** An unsigned 64-bit integer in decimal, as 16 hex digits. */
function hex64OfDecimal(value: unknown): string | undefined {
  if (typeof value !== 'string' || !DECIMAL_ID.test(value)) return undefined;
  const id = BigInt(value);
  return id > UINT64_MAX ? undefined : id.toString(16).padStart(16, '0');
}

/** The trace id's upper 64 bits: `_dd.p.tid` of `x-datadog-tags`, or zeros (a 64-bit trace id). */
function upperTraceIdOf(tags: unknown): string {
  if (typeof tags !== 'string' || tags.length > MAX_TAGS_LENGTH) return ZERO_SPAN_ID;
  return TRACE_ID_HIGH_TAG.exec(tags)?.[1]?.toLowerCase() ?? ZERO_SPAN_ID;
}
