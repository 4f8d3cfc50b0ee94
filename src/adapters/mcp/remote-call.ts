import type { SpanContext } from '@opentelemetry/api';
import { errorMessageOf } from '../../otel/error-type.js';
import { ERROR_TYPE_VALUE_TOOL_ERROR, MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { RemoteCallError, RemoteCallInfo } from '../../remote-call.js';
import type { ToolCallRejection } from '../../tool-call-listener.js';
import { ToolResultError } from '../../tool-result-error.js';
import { sdkOwnErrorType } from './sdk-own-errors.js';

/** The JSON-RPC code McpServer passes on as an error answer when a tool throws it (both SDK lines). */
const URL_ELICITATION_REQUIRED = -32042;

/** A `tools/call` sent by this process: a span of kind CLIENT, JSON-RPC errors by their code. */
export function clientCall(): RemoteCallInfo {
  return CLIENT_CALL;
}

const CLIENT_CALL: RemoteCallInfo = Object.freeze({
  protocol: 'mcp',
  side: 'client',
  operation: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
  describeError: (error: unknown) => jsonRpcError(error),
});

/**
 * A `tools/call` handled by this process: a span of kind SERVER. McpServer answers a tool that
 * throws with an `isError` result, so a thrown error is a tool error (`tool_error`), as an `isError`
 * result is; only what McpServer sends as a JSON-RPC error answer is recorded by its code.
 */
export function serverCall(requestId: unknown, links: readonly SpanContext[]): RemoteCallInfo {
  return serverSide(requestId, links, describeServerError);
}

/** A server call's failure: a tool error, but for what McpServer passes on as a JSON-RPC error answer. */
function describeServerError(error: unknown): RemoteCallError | undefined {
  const protocolError = jsonRpcError(error);
  if (protocolError !== undefined && protocolError.statusCode === String(URL_ELICITATION_REQUIRED)) {
    return protocolError;
  }
  return error instanceof ToolResultError ? undefined : TOOL_ERROR;
}

const TOOL_ERROR: RemoteCallError = Object.freeze({ type: ERROR_TYPE_VALUE_TOOL_ERROR });

/**
 * A `tools/call` handled by a low-level Server's own `tools/call` handler (handler-tool-calls.ts): a
 * span of kind SERVER whose failure is what the SDK answers. An `isError` result is a tool error
 * (`tool_error`); a thrown error is sent as a JSON-RPC error answer, with the error's integer `code`
 * (an `McpError`'s) or `-32603` (Internal error) for any other, as both SDK lines do: that code, as
 * the client records it.
 */
export function handlerServerCall(requestId: unknown, links: readonly SpanContext[]): RemoteCallInfo {
  return serverSide(requestId, links, describeHandlerError);
}

function describeHandlerError(error: unknown): RemoteCallError | undefined {
  if (error instanceof ToolResultError) return undefined; // an isError result: tool_error, by its code
  return jsonRpcError(error) ?? INTERNAL_ERROR;
}

/** What both SDK lines answer for a thrown error without an integer `code`. */
const INTERNAL_ERROR: RemoteCallError = Object.freeze({ type: '-32603', statusCode: '-32603' });

/**
 * A `tools/call` McpServer refused before any tool ran (unknown tool, invalid arguments): a SERVER
 * span whose failure is what McpServer answered. A JSON-RPC error answer (2.x: an unknown tool,
 * `-32602`) is its code; an `isError` answer is the `McpToolError` of it, `tool_error`.
 */
export function rejectedServerCall(requestId: unknown, links: readonly SpanContext[]): RemoteCallInfo {
  return serverSide(requestId, links, jsonRpcError);
}

/** A `tools/call` this process handles, its failures described by `describeError`. */
function serverSide(
  requestId: unknown,
  links: readonly SpanContext[],
  describeError: (error: unknown) => RemoteCallError | undefined,
): RemoteCallInfo {
  return {
    protocol: 'mcp',
    side: 'server',
    operation: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
    requestId: requestIdOf(requestId),
    links: links.length > 0 ? links : undefined,
    describeError,
  };
}

/** JSON-RPC ids are strings or numbers; a null id is not recorded (the conventions). */
function requestIdOf(requestId: unknown): string | undefined {
  return typeof requestId === 'string' || typeof requestId === 'number' ? String(requestId) : undefined;
}

/**
 * An error the SDK raised for a JSON-RPC error answer (1.x `McpError`, 2.x `ProtocolError`): an
 * integer `code`, also the `rpc.response.status_code`. One the 1.x SDK raised itself, not a peer's
 * answer (the connection closed, the request timed out: sdk-own-errors.ts), is recorded under the
 * name 2.x gives the same failure, so that a dead peer is one `error.type` on both SDK lines. 1.x
 * prefixes the peer's message with `MCP error {code}: `; it is taken off, so the status description
 * is the JSON-RPC error message, bounded as every error message is (the peer chose it: 1 MB, 100,000
 * newlines, stack lines).
 */
export function jsonRpcError(error: unknown): RemoteCallError | undefined {
  if (error === null || typeof error !== 'object' || error instanceof ToolResultError) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  const text = String(code);
  const prefix = `MCP error ${text}: `;
  const local = sdkOwnErrorType(error, code);
  return {
    type: local ?? text,
    statusCode: local === undefined ? text : undefined,
    message:
      typeof message === 'string' && message.startsWith(prefix)
        ? errorMessageOf(message.slice(prefix.length))
        : undefined,
  };
}

/**
 * The model's bad call a peer's error answer says: JSON-RPC -32601 (Method not found: fastmcp's and
 * other low-level servers' unknown tool) and -32602 (Invalid params: 2.x McpServer's unknown tool,
 * invalid arguments).
 */
export function refusalOf(error: unknown): ToolCallRejection | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  try {
    const { code } = error as { code?: unknown };
    return code === -32601 ? 'unknown_tool' : code === -32602 ? 'invalid_input' : undefined;
  } catch {
    return undefined;
  }
}
