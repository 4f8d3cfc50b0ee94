/**
 * What a server-side tool call knows of its request, read from what McpServer hands the function
 * it calls: 1.x calls `handler(args, extra)` (or `handler(extra)` for a tool without input schema),
 * 2.x calls `executor(args, ctx)`. Every field may be absent; nothing here throws.
 */
export interface HandlerRequest {
  readonly input: unknown;
  readonly requestId: unknown;
  readonly signal: AbortSignal | undefined;
  readonly sessionId: unknown;
  /** The request's `params._meta`: where the client put the trace context. */
  readonly meta: unknown;
  readonly protocolVersion: unknown;
  /** The request came over HTTP (Streamable HTTP): the server saw its headers. */
  readonly overHttp: boolean;
}

/** The 2026-07-28 per-request envelope key of the protocol version (2.x lifts it out of `_meta`). */
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

interface Extra1 {
  requestId?: unknown;
  signal?: unknown;
  sessionId?: unknown;
  _meta?: unknown;
  requestInfo?: { headers?: Record<string, unknown> };
}

/** SDK 1.x: `handler(args, extra)`, or `handler(extra)` for a tool without input schema. */
export function requestOfHandler(params: readonly unknown[]): HandlerRequest {
  const hasArgs = params.length >= 2;
  const extra = objectOr<Extra1>(hasArgs ? params[1] : params[0]);
  return safely(hasArgs ? params[0] : undefined, () => {
    const headers = objectOr<Record<string, unknown>>(extra.requestInfo?.headers);
    return {
      requestId: extra.requestId,
      signal: extra.signal instanceof AbortSignal ? extra.signal : undefined,
      sessionId: extra.sessionId,
      meta: extra._meta,
      protocolVersion: headers[PROTOCOL_VERSION_HEADER],
      overHttp: extra.requestInfo !== undefined,
    };
  });
}

interface Context2 {
  sessionId?: unknown;
  mcpReq?: { id?: unknown; signal?: unknown; _meta?: unknown; envelope?: Record<string, unknown> };
  http?: { req?: { headers?: { get?: (name: string) => unknown } } };
}

/** SDK 2.x: `executor(args, ctx)`; `args` is undefined for a tool without input schema. */
export function requestOfExecutor(params: readonly unknown[]): HandlerRequest {
  const ctx = objectOr<Context2>(params[1]);
  return safely(params[0], () => {
    const request = objectOr<NonNullable<Context2['mcpReq']>>(ctx.mcpReq);
    const http = ctx.http;
    const headerVersion = http?.req?.headers?.get?.(PROTOCOL_VERSION_HEADER);
    return {
      requestId: request.id,
      signal: request.signal instanceof AbortSignal ? request.signal : undefined,
      sessionId: ctx.sessionId,
      meta: request._meta,
      protocolVersion: objectOr<Record<string, unknown>>(request.envelope)[PROTOCOL_VERSION_META_KEY] ?? headerVersion,
      overHttp: http !== undefined && http !== null,
    };
  });
}

function objectOr<T>(value: unknown): Partial<T> {
  return value !== null && typeof value === 'object' ? (value as Partial<T>) : {};
}

/** A request object whose getters throw (a Proxy, a hostile caller) yields no facts, not a crash. */
function safely(input: unknown, read: () => Omit<HandlerRequest, 'input'>): HandlerRequest {
  try {
    return { input, ...read() };
  } catch {
    return {
      input,
      requestId: undefined,
      signal: undefined,
      sessionId: undefined,
      meta: undefined,
      protocolVersion: undefined,
      overHttp: false,
    };
  }
}

/**
 * What a JSON-RPC request (or notification) says of itself when no handler's `extra`/`ctx` is there
 * to read (a request the SDK answers itself): its id and its `params._meta`.
 */
export function requestFactsOf(message: unknown): { requestId: unknown; meta: unknown } {
  try {
    const { id, params } = message as { id?: unknown; params?: { _meta?: unknown } };
    return { requestId: id, meta: params !== null && typeof params === 'object' ? params._meta : undefined };
  } catch {
    return { requestId: undefined, meta: undefined };
  }
}

/** A transport's `sessionId` (Streamable HTTP with sessions), if it has one. */
export function sessionIdOf(transport: unknown): unknown {
  try {
    return (transport as { sessionId?: unknown } | null | undefined)?.sessionId;
  } catch {
    return undefined;
  }
}
