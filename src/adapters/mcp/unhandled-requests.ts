/*
 * A request the SDK answers with `-32601` (Method not found) itself: no handler for its method and
 * no fallback handler (a server with no tool asked `tools/call`, a method the peer made up, a client
 * asked to sample with no handler for it). No handler runs, so none of the wrapped ones
 * (server-operations.ts, rejected-requests.ts) sees it: protocol-seam.ts's `onUnhandledRequests`
 * tells of it. Here: how it is recorded. The SDK's answer is not changed: it is sent by the SDK,
 * the same bytes.
 */

/** The JSON-RPC code and message both SDK lines answer a request without a handler with. */
export const METHOD_NOT_FOUND = -32601;

/** The error an unhandled request is recorded with (what the peer receives: its code and message). */
export function methodNotFound(): Error & { code: number } {
  return Object.assign(new Error('Method not found'), { code: METHOD_NOT_FOUND });
}

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
