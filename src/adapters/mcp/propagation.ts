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
import {
  DATADOG_META_KEY,
  datadogSpanContext,
  SENTRY_TRACE_META_KEY,
  sentrySpanContext,
} from './vendor-trace-context.js';

/*
 * Trace context across the MCP boundary, as the MCP semantic conventions and SEP-414 ask: the
 * client injects the active context through the global propagator into `params._meta` of each
 * request and notification (unprefixed keys, whichever the propagator writes: `traceparent`,
 * `tracestate`, `baggage` for W3C; `x-b3-*` or `b3` for B3; `uber-trace-id` for Jaeger), the server
 * extracts it with the same propagator from the `_meta` its handler receives and makes it the parent
 * of its span.
 *
 * `_meta` comes from a peer: whatever it holds must not break the call nor cost more than a bound.
 * The server reads it once into a carrier of string values: first every key the propagator's
 * `fields()` names, then the other own keys (a propagator may read a family of keys, as Jaeger's
 * `uberctx-*` baggage), at most `MAX_CARRIER_KEYS` keys and `MAX_CARRIER_CHARACTERS` characters in
 * all; a value over its key's limit is as if absent.
 */

/** Longest value read per key (W3C: traceparent is 55 characters today, tracestate 512, baggage 8192). */
const MAX_LENGTH: Readonly<Record<string, number>> = { traceparent: 256, tracestate: 512, baggage: 8192 };
/** Longest value of any other key (a B3 single header is about 90 characters, Jaeger's 70). */
const DEFAULT_MAX_LENGTH = 8192;
/** At most this many keys of a `_meta` reach the propagator. */
export const MAX_CARRIER_KEYS = 32;
/** At most this many characters of `_meta` values reach the propagator, all keys together. */
export const MAX_CARRIER_CHARACTERS = 16_384;

const carrierGetter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** What `withTraceContext` adds: the fields the global propagator writes for the active context. */
function injectedFields(): Record<string, string> | undefined {
  const injected: Record<string, string> = {};
  propagation.inject(context.active(), injected, defaultTextMapSetter);
  for (const _key in injected) return injected;
  return undefined;
}

/**
 * An object literal's kind: its prototype is `Object.prototype` (or none), so it has no prototype
 * getters, no `#private` fields and no class behind it; a copy of its own enumerable properties is
 * what a JSON transport would send of it anyway.
 */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  // an own `__proto__` key (JSON.parse makes them) would be the copy's prototype under Object.assign
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, '__proto__');
}

/**
 * `params` with the active context injected into its `_meta` (other `_meta` keys kept); `params`
 * itself when there is nothing to inject or its `_meta` is not an object. Never mutates. Params and
 * a `_meta` that are object literals (the common case) are copied, the injected keys added: a stand-in
 * costs a Proxy trap on every read the transport makes, dearer than the copy by far (issue 39's
 * floor). Any other object is stood in for (`forwardingObject`), so a params class's getters (`name`,
 * `arguments` on its prototype), inherited defaults and the app's own `_meta` keys read as they do
 * without the adapter. Every shipped transport serializes a message as JSON, the in-memory one hands
 * it over as it is.
 */
export function withTraceContext<Params extends object>(params: Params): Params {
  try {
    const meta = (params as { _meta?: unknown })._meta;
    // `Array.isArray` inside the try: it throws on a revoked Proxy
    if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return params;
    const fields = injectedFields();
    if (fields === undefined) return params;
    const plainMeta = meta === undefined || isPlainObject(meta as object);
    if (plainMeta && isPlainObject(params)) {
      // Object.assign, not a spread: on Node 20 a spread copy that gains a key costs ten times more
      const copy = Object.assign({}, params) as Params & { _meta: Record<string, string> };
      copy._meta = meta === undefined ? fields : Object.assign({}, meta, fields);
      return copy;
    }
    const withContext = meta === undefined ? fields : forwardingObject(meta as object, new Map(Object.entries(fields)));
    return forwardingObject(params, new Map([['_meta', withContext]]));
  } catch (error) {
    logger.error('could not inject the trace context into params._meta; the message is sent without it', error);
    return params;
  }
}

/**
 * A JSON-RPC request or notification (`{ method, params? }`) whose `params._meta` carries the active
 * context: a stand-in for `message` with `params` replaced (a message without params gets
 * `{ _meta }`), or `message` itself when there is nothing to inject. Never mutates.
 */
export function messageWithTraceContext<Message extends object>(message: Message): Message {
  try {
    const params = (message as { params?: unknown }).params;
    if (params === undefined) {
      const fields = injectedFields();
      if (fields === undefined) return message;
      return forwardingObject(message, new Map([['params', { _meta: fields }]]));
    }
    if (params === null || typeof params !== 'object') return message;
    const withContext = withTraceContext(params);
    return withContext === params ? message : forwardingObject(message, new Map([['params', withContext]]));
  } catch (error) {
    logger.error('could not inject the trace context into a message; it is sent without it', error);
    return message;
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
  if (meta === null || typeof meta !== 'object') return { parent: ambient, links: NO_LINKS };
  try {
    // inside the try: `Array.isArray` throws on a revoked Proxy
    if (Array.isArray(meta)) return { parent: ambient, links: NO_LINKS };
    const carrier = copyCarrier(meta as Record<string, unknown>);
    let extracted = propagation.extract(ambient, carrier, carrierGetter);
    const local = trace.getSpanContext(ambient);
    let remote = trace.getSpanContext(extracted);
    if (remote === undefined || remote === local) {
      // none the configured propagator reads: Datadog's or Sentry's own keys (vendor-trace-context.ts)
      const vendor = vendorParentOf(meta as Record<string, unknown>, extracted);
      if (vendor !== undefined) {
        extracted = vendor;
        remote = trace.getSpanContext(vendor);
      }
    }
    // no ambient span (stdio, most servers): nothing to link, and no validity to check
    if (local === undefined) return { parent: extracted, links: NO_LINKS };
    const replaced = remote !== undefined && remote !== local && isSpanContextValid(remote);
    // in one process (an in-memory transport) the ambient span can be the client's span itself
    const linked = replaced && isSpanContextValid(local) && local.spanId !== remote?.spanId;
    return { parent: extracted, links: linked ? [local] : NO_LINKS };
  } catch (error) {
    logger.warn('ignored the trace context of a request: its _meta could not be read', error);
    return { parent: ambient, links: NO_LINKS };
  }
}

/**
 * `base` with the span context a vendor's own `_meta` keys carry, when the configured propagator
 * found none: Datadog's `_dd_trace_context` (handed to the configured propagator first, within the
 * bounds of `copyCarrier`: by default it holds a `traceparent`, and its `baggage` is kept; then read in
 * Datadog's own style), else Sentry's `sentry-trace`. `undefined` when neither has a valid one.
 */
function vendorParentOf(meta: Record<string, unknown>, base: Context): Context | undefined {
  const datadog = Object.hasOwn(meta, DATADOG_META_KEY) ? meta[DATADOG_META_KEY] : undefined;
  if (datadog !== null && typeof datadog === 'object' && !Array.isArray(datadog)) {
    const carrier = copyCarrier(datadog as Record<string, unknown>);
    const nested = propagation.extract(base, carrier, carrierGetter);
    const found = trace.getSpanContext(nested);
    if (found !== undefined && found !== trace.getSpanContext(base) && isSpanContextValid(found)) return nested;
    const own = datadogSpanContext(carrier);
    if (own !== undefined && isSpanContextValid(own)) return trace.setSpanContext(base, own);
  }
  const sentry = Object.hasOwn(meta, SENTRY_TRACE_META_KEY)
    ? sentrySpanContext(meta[SENTRY_TRACE_META_KEY])
    : undefined;
  return sentry !== undefined && isSpanContextValid(sentry) ? trace.setSpanContext(base, sentry) : undefined;
}

/** No links: one frozen array for every request that has none. */
const NO_LINKS: readonly SpanContext[] = Object.freeze([]);

/**
 * The carrier the propagator reads: string values of `meta`'s own keys, the propagator's `fields()`
 * first, within the key and character bounds. Read once: a Proxy or a throwing getter fails here,
 * inside the caller's try.
 */
function copyCarrier(meta: Record<string, unknown>): Record<string, string> {
  const carrier: Record<string, string> = {};
  const budget = { keys: MAX_CARRIER_KEYS, characters: MAX_CARRIER_CHARACTERS };
  for (const key of propagation.fields()) {
    if (Object.hasOwn(meta, key)) take(carrier, key, meta[key], budget);
  }
  for (const key of Object.keys(meta)) {
    if (budget.keys === 0) break;
    if (!Object.hasOwn(carrier, key)) take(carrier, key, meta[key], budget);
  }
  return carrier;
}

function take(
  carrier: Record<string, string>,
  key: string,
  value: unknown,
  budget: { keys: number; characters: number },
): void {
  if (budget.keys === 0 || typeof value !== 'string') return;
  if (value.length > (MAX_LENGTH[key] ?? DEFAULT_MAX_LENGTH) || value.length > budget.characters) return;
  carrier[key] = value;
  budget.keys -= 1;
  budget.characters -= value.length;
}
