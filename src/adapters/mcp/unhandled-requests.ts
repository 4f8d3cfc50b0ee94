import { logger } from '../../internal/logger.js';

/*
 * A request the SDK answers with `-32601` (Method not found) itself: no handler for its method in
 * `_requestHandlers` and no `fallbackRequestHandler` (a server with no tool asked `tools/call`, a
 * method the peer made up, a client asked to sample with no handler for it). No handler runs, so none
 * of the wrapped ones (server-operations.ts, rejected-requests.ts) sees it. The Protocol's
 * `_onrequest`, which the transport's `onmessage` calls with every request on both SDK lines, is
 * replaced on the instance by one that tells, before the SDK answers as it does without this
 * package; a request with a handler costs one Map lookup more. The SDK's answer is not changed: it is
 * sent by the SDK, the same bytes.
 */

/** The JSON-RPC code and message both SDK lines answer a request without a handler with. */
export const METHOD_NOT_FOUND = -32601;

/** The error an unhandled request is recorded with (what the peer receives: its code and message). */
export function methodNotFound(): Error & { code: number } {
  return Object.assign(new Error('Method not found'), { code: METHOD_NOT_FOUND });
}

type OnRequest = (this: unknown, request: unknown, extra: unknown, ...rest: unknown[]) => unknown;

interface ProtocolInternals {
  _onrequest?: unknown;
  _requestHandlers?: unknown;
  fallbackRequestHandler?: unknown;
}

const watched = new WeakSet<object>();

/**
 * The request methods MCP defines (the conventions' list of `mcp.method.name` values, the tasks
 * methods, 2.x's `server/discover`). The method of an unhandled request is the peer's choice: any
 * other is recorded as `_OTHER`, or a peer sending made-up methods would make a new metric series
 * (`mcp.method.name` is an attribute of the operation durations) with each of them.
 */
const MCP_REQUEST_METHODS: ReadonlySet<string> = new Set([
  'completion/complete',
  'elicitation/create',
  'initialize',
  'logging/setLevel',
  'ping',
  'prompts/get',
  'prompts/list',
  'resources/list',
  'resources/read',
  'resources/subscribe',
  'resources/templates/list',
  'resources/unsubscribe',
  'roots/list',
  'sampling/createMessage',
  'server/discover',
  'tasks/cancel',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'tools/call',
  'tools/list',
]);

/** `method` when MCP defines it, else `_OTHER`. */
export function boundedMethod(method: string): string {
  return MCP_REQUEST_METHODS.has(method) ? method : '_OTHER';
}

/**
 * Calls `onUnhandled(method, request, extra)` for each request `protocol` (a low-level Server, or a
 * Client) is about to answer `-32601` because it has no handler for it.
 */
export function watchUnhandledRequests(
  protocol: unknown,
  onUnhandled: (method: string, request: unknown, extra: unknown) => void,
): void {
  if (protocol === null || typeof protocol !== 'object' || watched.has(protocol)) return;
  const target = protocol as ProtocolInternals;
  try {
    const onrequest = target._onrequest;
    if (typeof onrequest !== 'function' || !(target._requestHandlers instanceof Map)) return;
    watched.add(protocol);
    Object.defineProperty(protocol, '_onrequest', {
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
          try {
            onUnhandled(method, request, extra);
          } catch (error) {
            logger.error(`could not record the unhandled MCP request ${method}`, error);
          }
        }
        return (onrequest as OnRequest).call(this, request, extra, ...rest);
      },
    });
  } catch (error) {
    logger.error('could not watch the MCP requests without a handler; they are not recorded', error);
  }
}
