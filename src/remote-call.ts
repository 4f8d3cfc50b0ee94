import type { SpanContext } from '@opentelemetry/api';

/**
 * The protocols whose conventions a listener knows for a call that crosses a process boundary.
 * `'mcp'`: the OpenTelemetry MCP semantic conventions (span `{operation} {tool}`, `jsonrpc.request.id`,
 * `rpc.response.status_code`, `mcp.client.operation.duration` / `mcp.server.operation.duration`).
 */
export type RemoteCallProtocol = 'mcp';

/**
 * What an adapter tells a listener about a call that crosses a process boundary, so that it can
 * record it the way the protocol's conventions ask, in terms that name no framework. A call
 * without it is an in-process call (an `execute_tool` span of kind `INTERNAL`).
 */
export interface RemoteCallInfo {
  /** Whose conventions apply. */
  readonly protocol: RemoteCallProtocol;
  /**
   * `'client'`: this process sends the call to a peer and waits for its answer (span kind `CLIENT`);
   * `'server'`: this process handles a call a peer sent (span kind `SERVER`).
   */
  readonly side: 'client' | 'server';
  /** The protocol's name of the request, the first word of the span name: `tools/call` for MCP. */
  readonly operation: string;
  /** The request's id in the protocol (MCP: the JSON-RPC `id`), when this side knows it. */
  readonly requestId?: string;
  /**
   * Contexts the call is related to but not a child of, recorded as span links: on a server whose
   * span's parent is the caller's span, the context it was received in (e.g. the HTTP request's span).
   */
  readonly links?: readonly SpanContext[];
  /**
   * How the protocol describes a failure, when it does: an error answer of the peer, or a failure
   * the conventions name (MCP: `tool_error` for a tool that threw). `undefined` leaves the listener's
   * own description (`error.type` from the error's `code`/`name`). Must not throw; if it does, the
   * listener's own description is used.
   */
  readonly describeError?: (error: unknown) => RemoteCallError | undefined;
}

/** A failure as the protocol describes it. */
export interface RemoteCallError {
  /** The `error.type`: a low-cardinality class of the failure (MCP: the JSON-RPC code, or `tool_error`). */
  readonly type: string;
  /** The status code of the peer's error answer (MCP: the JSON-RPC error code, as `rpc.response.status_code`). */
  readonly statusCode?: string;
  /** The span status description: the protocol's error message (MCP: `JSONRPCError.message`). */
  readonly message?: string;
}
