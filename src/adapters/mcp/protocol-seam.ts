import { logger } from '../../internal/logger.js';

/*
 * Where this package reaches into the SDK's `Protocol`, the class a `Client` and a low-level `Server`
 * both extend (1.x and the 2.x split packages alike): its private members are read and replaced here
 * only, on the instance, so that a change of the SDK's internals is mended in this file (and in
 * client-seam.ts / server-seam.ts for what only a Client or an McpServer has).
 *
 * The handler Maps (`_requestHandlers`, `_notificationHandlers`, keyed by method) and the `_onrequest`
 * every request passes through are shared by several observers (a server's operations, its refused
 * tool calls, its negotiated version): each subscribes under its own key, once, and the seam patches
 * the Protocol once for all of them. A handler present when a subscriber comes is wrapped then; one
 * set later (McpServer registers `tools/call` with its first tool, `resources/*` with its first
 * resource) as the Map stores it. So what an observer sees does not depend on the order the others
 * subscribed in, nor on when the app registers its tools.
 */

export type Handler = (this: unknown, ...args: unknown[]) => unknown;

/** A subscriber's wrapping of the handler of `method`; `undefined` keeps the handler as it is. */
export type HandlerWrapper = (method: unknown, handler: Handler) => Handler | undefined;

/** Told of a request the SDK is about to answer `-32601` (Method not found) itself: no handler for it. */
export type UnhandledRequestListener = (method: string, request: unknown, extra: unknown) => void;

interface ProtocolInternals {
  _requestHandlers?: unknown;
  _notificationHandlers?: unknown;
  _onrequest?: unknown;
  fallbackRequestHandler?: unknown;
  _responseHandlers?: unknown;
  _requestResolvers?: unknown;
  _requestHandlerAbortControllers?: unknown;
  _requestMessageId?: unknown;
  _options?: { debouncedNotificationMethods?: unknown } | undefined;
  _pendingDebouncedNotifications?: unknown;
}

/** One handler Map's subscribers, by key: a key subscribes once. */
interface MapSubscribers {
  readonly wrappers: Map<string, HandlerWrapper>;
}

const mapSubscribers = new WeakMap<Map<unknown, unknown>, MapSubscribers>();
/** The handlers the seam made: stored again as they are (never wrapped twice). */
const seamHandlers = new WeakSet<object>();
const unhandledListeners = new WeakMap<object, Map<string, UnhandledRequestListener>>();

function internals(protocol: unknown): ProtocolInternals | undefined {
  return protocol !== null && typeof protocol === 'object' ? (protocol as ProtocolInternals) : undefined;
}

/**
 * Whether `value` is a low-level `Server` (1.x `@modelcontextprotocol/sdk/server`, 2.x
 * `@modelcontextprotocol/server`'s `Server`), told by its shape: `setRequestHandler` and
 * `getClientCapabilities` (a Client has the first only), and `connect`.
 */
export function isLowLevelServer(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  try {
    const server = value as Record<string, unknown>;
    return (
      typeof server.setRequestHandler === 'function' &&
      typeof server.getClientCapabilities === 'function' &&
      typeof server.connect === 'function'
    );
  } catch {
    return false;
  }
}

/** The Protocol's request handlers by method, when it has that shape. */
export function requestHandlersOf(protocol: unknown): Map<unknown, unknown> | undefined {
  const handlers = internals(protocol)?._requestHandlers;
  return handlers instanceof Map ? handlers : undefined;
}

/** The Protocol's notification handlers by method, when it has that shape. */
export function notificationHandlersOf(protocol: unknown): Map<unknown, unknown> | undefined {
  const handlers = internals(protocol)?._notificationHandlers;
  return handlers instanceof Map ? handlers : undefined;
}

/**
 * Every request handler of `protocol`, now and as it is set, wrapped by `wrap` (once per `key`).
 * False when the Protocol has no handler Map of that shape (nothing is then observed through it).
 */
export function onRequestHandlers(protocol: unknown, key: string, wrap: HandlerWrapper): boolean {
  try {
    return subscribe(requestHandlersOf(protocol), key, wrap);
  } catch (error) {
    logger.error(`could not watch the MCP request handlers (${key}); they are not observed`, error);
    return false;
  }
}

/** As `onRequestHandlers`, for the notification handlers. */
export function onNotificationHandlers(protocol: unknown, key: string, wrap: HandlerWrapper): boolean {
  try {
    return subscribe(notificationHandlersOf(protocol), key, wrap);
  } catch (error) {
    logger.error(`could not watch the MCP notification handlers (${key}); they are not observed`, error);
    return false;
  }
}

function subscribe(handlers: Map<unknown, unknown> | undefined, key: string, wrap: HandlerWrapper): boolean {
  if (handlers === undefined) return false;
  let subscribers = mapSubscribers.get(handlers);
  if (subscribers === undefined) {
    subscribers = { wrappers: new Map() };
    mapSubscribers.set(handlers, subscribers);
    interceptSet(handlers, subscribers);
  }
  if (subscribers.wrappers.has(key)) return true;
  subscribers.wrappers.set(key, wrap);
  for (const [method, handler] of handlers) {
    const wrapped = applyWrapper(wrap, method, handler);
    if (wrapped !== handler) handlers.set(method, wrapped);
  }
  return true;
}

/** The Map's own `set` (on the instance) wraps what it stores with every subscriber, in the order they came. */
function interceptSet(handlers: Map<unknown, unknown>, subscribers: MapSubscribers): void {
  const set = handlers.set;
  Object.defineProperty(handlers, 'set', {
    configurable: true,
    writable: true,
    value: function setObserved(this: Map<unknown, unknown>, method: unknown, handler: unknown) {
      let stored = handler;
      if (!seamHandlers.has(handler as object)) {
        for (const wrap of subscribers.wrappers.values()) stored = applyWrapper(wrap, method, stored);
      }
      return set.call(this, method, stored);
    },
  });
}

function applyWrapper(wrap: HandlerWrapper, method: unknown, handler: unknown): unknown {
  if (typeof handler !== 'function') return handler;
  try {
    const wrapped = wrap(method, handler as Handler);
    if (wrapped === undefined) return handler;
    seamHandlers.add(wrapped);
    return wrapped;
  } catch (error) {
    logger.error(`could not observe the MCP handler of ${String(method)}; it runs unobserved`, error);
    return handler;
  }
}

/**
 * `listener` (once per `key`) is told of each request `protocol` is about to answer `-32601` itself:
 * no handler for its method in `_requestHandlers` and no `fallbackRequestHandler` (a server with no
 * tool asked `tools/call`, a method the peer made up). No handler runs, so no handler wrapper sees it:
 * the Protocol's `_onrequest`, which the transport's `onmessage` calls with every request on both
 * SDK lines, is replaced on the instance by one that tells, before the SDK answers as it does
 * without this package (the same bytes). A request with a handler costs one Map lookup more.
 */
export function onUnhandledRequests(protocol: unknown, key: string, listener: UnhandledRequestListener): void {
  const target = internals(protocol);
  if (target === undefined) return;
  const listeners = unhandledListeners.get(target);
  if (listeners !== undefined) {
    if (!listeners.has(key)) listeners.set(key, listener);
    return;
  }
  try {
    const onrequest = target._onrequest;
    if (typeof onrequest !== 'function' || !(target._requestHandlers instanceof Map)) return;
    const subscribed = new Map([[key, listener]]);
    unhandledListeners.set(target, subscribed);
    Object.defineProperty(target, '_onrequest', {
      configurable: true,
      writable: true,
      value: function onrequestWatched(this: ProtocolInternals, request: unknown, extra: unknown, ...rest: unknown[]) {
        const method = (request as { method?: unknown } | null)?.method;
        const handlers = this._requestHandlers;
        if (
          typeof method === 'string' &&
          handlers instanceof Map &&
          !handlers.has(method) &&
          this.fallbackRequestHandler === undefined
        ) {
          for (const told of subscribed.values()) {
            try {
              told(method, request, extra);
            } catch (error) {
              logger.error(`could not record the unhandled MCP request ${method}`, error);
            }
          }
        }
        return (onrequest as Handler).call(this, request, extra, ...rest);
      },
    });
  } catch (error) {
    logger.error('could not watch the MCP requests without a handler; they are not recorded', error);
  }
}

/**
 * The Protocol's method every answer to a request it sent passes through (both lines), with the
 * error it makes of an error answer handed to the request's waiter there.
 */
export const RESPONSE_ENTRY = '_onresponse';

/** Replaces the Protocol's `_onresponse` on the instance by `make(original)`. */
export function onResponses(protocol: object, make: (original: Handler) => Handler): void {
  replaceMethod(protocol, RESPONSE_ENTRY, make);
}

/**
 * What the SDK's transports say of themselves, told by their shape (they say little in public), on
 * both SDK lines: a Streamable HTTP client transport keeps its URL (`_url`) and has
 * `terminateSession()`; an HTTP server transport has `handleRequest()`; a stdio client transport has
 * `pid` and `stderr`, a stdio server transport `_stdin` and `_stdout`. An unknown transport
 * (in-memory, custom) is `undefined`.
 */
export type TransportShape = { readonly kind: 'http'; readonly url?: URL } | { readonly kind: 'stdio' } | undefined;

export function transportShapeOf(transport: unknown): TransportShape {
  if (transport === null || typeof transport !== 'object') return undefined;
  try {
    const shape = transport as Record<string, unknown>;
    const url = shape._url;
    if (url instanceof URL) return { kind: 'http', url };
    if (typeof shape.handleRequest === 'function' || typeof shape.terminateSession === 'function') {
      return { kind: 'http' };
    }
    if (('pid' in shape && 'stderr' in shape) || ('_stdin' in shape && '_stdout' in shape)) return { kind: 'stdio' };
  } catch {
    // a transport whose getters throw: nothing safe to say about it
  }
  return undefined;
}

/**
 * Replaces `protocol[name]` (a method of the Protocol or of its subclass) on the instance by
 * `make(original)`; nothing when it is no function. The one way this package replaces a method of
 * an SDK object it was handed.
 */
export function replaceMethod(protocol: object, name: string, make: (original: Handler) => Handler): boolean {
  const original = (protocol as Record<string, unknown>)[name];
  if (typeof original !== 'function') return false;
  Object.defineProperty(protocol, name, { configurable: true, writable: true, value: make(original as Handler) });
  return true;
}

/**
 * Whether `protocol` has requests in flight: sent and unanswered (`_responseHandlers`), or received
 * and not answered yet (`_requestHandlerAbortControllers`); false when it cannot tell.
 */
export function hasRequestsInFlight(protocol: object): boolean {
  try {
    const { _responseHandlers: sent, _requestHandlerAbortControllers: received } = protocol as ProtocolInternals;
    return (sent instanceof Map && sent.size > 0) || (received instanceof Map && received.size > 0);
  } catch {
    return false;
  }
}

/**
 * The Maps of what waits for the answer to a request, by its numeric id: `_responseHandlers`, and
 * 1.x's `_requestResolvers` of queued requests.
 */
export function responseWaitersOf(protocol: unknown): Map<unknown, unknown>[] {
  const target = internals(protocol);
  if (target === undefined) return [];
  const { _responseHandlers: handlers, _requestResolvers: resolvers } = target;
  return [handlers, resolvers].filter((waiting): waiting is Map<unknown, unknown> => waiting instanceof Map);
}

/**
 * The id the Protocol will give its next request (`_requestMessageId`, both lines): it takes it
 * synchronously inside `request()`, so the counter moving by one across a call tells the call's id.
 */
export function nextRequestId(protocol: object): unknown {
  return (protocol as ProtocolInternals)._requestMessageId;
}

/**
 * Whether `protocol` merges (debounces) `notification` sent with `options`: its method is in the
 * Protocol's `debouncedNotificationMethods` and it has no params, no related request and no related
 * task (the condition of both SDK lines: 2.x has no related task, and a related request id of `0`
 * is merged by 1.x alone, so such a notification is counted as merged and sent as it is either way).
 */
export function mergesNotification(protocol: object, notification: object, options: unknown): boolean {
  try {
    const methods = (protocol as ProtocolInternals)._options?.debouncedNotificationMethods;
    if (!Array.isArray(methods) || methods.length === 0) return false;
    const { method, params } = notification as { method?: unknown; params?: unknown };
    if (!methods.includes(method) || params) return false;
    const related = options as { relatedRequestId?: unknown; relatedTask?: unknown } | null | undefined;
    return !related?.relatedRequestId && !related?.relatedTask;
  } catch {
    return false;
  }
}

/**
 * Whether a merged notification of `method` already waits to be sent (`_pendingDebouncedNotifications`,
 * both lines): one more of it now adds nothing to the wire. False when it cannot tell.
 */
export function isMergePending(protocol: object, method: unknown): boolean {
  try {
    const pending = (protocol as ProtocolInternals)._pendingDebouncedNotifications;
    return pending instanceof Set && pending.has(method);
  } catch {
    return false;
  }
}
