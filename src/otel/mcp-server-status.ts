import type { McpSide } from './remote-call-metrics.js';

/*
 * Which JSON-RPC error answers are errors, by side, as the MCP conventions say
 * (semantic-conventions-genai #404, `model/mcp/common.yaml`: `mcp.client.status.attributes` and
 * `mcp.server.status.attributes`). On the side that sent the request (a CLIENT span,
 * `mcp.client.operation.duration`) every error code is an error. On the side that handled it (a
 * SERVER span, `mcp.server.operation.duration`: the server for the client's requests, the client for
 * the server's), the codes that say the caller sent a request the receiver could not serve are not:
 * the receiver answered as it should, and its error rate must not count the caller's mistakes. Such an
 * answer keeps `rpc.response.status_code`; it gets no `error.type` and leaves the span's status unset.
 *
 * A tool call refused this way is still the model's bad call: `tool_call.errors` (source `model`) and
 * `gen_ai.execute_tool.duration` keep its `error.type`, which the alerts on the model's errors read.
 */

/**
 * -32700 Parse error, -32600 Invalid Request, -32601 Method not found, -32602 Invalid params (also an
 * unknown tool), -32002 Resource not found.
 */
const CALLER_MISTAKES: ReadonlySet<string> = new Set(['-32700', '-32600', '-32601', '-32602', '-32002']);

/** An error answer with `statusCode` (`rpc.response.status_code`), on `side`: the caller's mistake, no error of this side. */
export function isCallersMistake(side: McpSide | undefined, statusCode: unknown): boolean {
  return side === 'server' && typeof statusCode === 'string' && CALLER_MISTAKES.has(statusCode);
}
