import {
  type Context,
  context,
  defaultTextMapSetter,
  isSpanContextValid,
  propagation,
  type SpanContext,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { logger } from '../../internal/logger.js';

/*
 * Trace context across the MCP boundary, as the MCP semantic conventions and SEP-414 ask: the
 * client injects the active context through the global propagator into `params._meta` of the
 * request (unprefixed keys: `traceparent`, `tracestate`, `baggage`), the server extracts it from the
 * `_meta` its handler receives and makes it the parent of its span.
 *
 * `_meta` comes from a peer: whatever it holds must not break the call. The getter hands the
 * propagator only strings within the W3C limits; anything else is as if absent.
 */

/** Longest value read per key (W3C: traceparent is 55 characters today, tracestate 512, baggage 8192). */
const MAX_LENGTH: Readonly<Record<string, number>> = { traceparent: 256, tracestate: 512, baggage: 8192 };
const DEFAULT_MAX_LENGTH = 512;

const boundedGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    if (typeof value !== 'string') return undefined;
    return value.length <= (MAX_LENGTH[key] ?? DEFAULT_MAX_LENGTH) ? value : undefined;
  },
};

/**
 * `params` with the active context injected into its `_meta` (other `_meta` keys kept); `params`
 * itself when there is nothing to inject or its `_meta` is not an object. Never mutates: what is sent
 * is a stand-in for `params` whose `_meta` is a stand-in for the app's `_meta` with the injected keys
 * added (`forwardingObject`), so a params class's getters (`name`, `arguments` on its prototype),
 * inherited defaults and the app's own `_meta` keys read as they do without the adapter. Every
 * shipped transport serializes a message as JSON, the in-memory one hands it over as it is.
 */
export function withTraceContext<Params extends object>(params: Params): Params {
  try {
    const meta = (params as { _meta?: unknown })._meta;
    // `Array.isArray` inside the try: it throws on a revoked Proxy
    if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return params;
    const injected: Record<string, string> = {};
    propagation.inject(context.active(), injected, defaultTextMapSetter);
    const entries = Object.entries(injected);
    if (entries.length === 0) return params;
    const withContext = meta === undefined ? injected : forwardingObject(meta as object, new Map(entries));
    return forwardingObject(params, new Map([['_meta', withContext]]));
  } catch (error) {
    logger.error('could not inject the trace context into params._meta; the request is sent without it', error);
    return params;
  }
}

/** Where a server-side call runs: its parent context, and the ambient one to link when they differ. */
export interface ExtractedContext {
  readonly parent: Context;
  readonly links: readonly SpanContext[];
}

/**
 * The context a request's `_meta` carries, on top of the ambient one: with a valid `traceparent`,
 * the client's span is the parent and the ambient span (e.g. the HTTP request's) is linked; without
 * one (absent, malformed, not a string, too long), the ambient context stays the parent.
 */
export function extractTraceContext(meta: unknown): ExtractedContext {
  const ambient = context.active();
  if (meta === null || typeof meta !== 'object') return { parent: ambient, links: [] };
  try {
    // inside the try: `Array.isArray` throws on a revoked Proxy
    if (Array.isArray(meta)) return { parent: ambient, links: [] };
    const carrier = copyCarrier(meta as Record<string, unknown>);
    const extracted = propagation.extract(ambient, carrier, boundedGetter);
    const remote = trace.getSpanContext(extracted);
    const local = trace.getSpanContext(ambient);
    const replaced = remote !== undefined && remote !== local && isSpanContextValid(remote);
    // in one process (an in-memory transport) the ambient span can be the client's span itself
    const linked = replaced && local !== undefined && isSpanContextValid(local) && local.spanId !== remote.spanId;
    const links = linked ? [local] : [];
    return { parent: extracted, links };
  } catch (error) {
    logger.warn('ignored the trace context of a tools/call request: it could not be read', error);
    return { parent: ambient, links: [] };
  }
}

/** Own string-valued keys only, read once: a Proxy or a throwing getter fails here, inside the try. */
function copyCarrier(meta: Record<string, unknown>): Record<string, unknown> {
  const carrier: Record<string, unknown> = {};
  for (const key of ['traceparent', 'tracestate', 'baggage']) {
    if (Object.hasOwn(meta, key)) carrier[key] = meta[key];
  }
  return carrier;
}
