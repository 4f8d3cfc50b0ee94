import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpSessionFacts } from './attributes.js';
import { seenVersion } from './negotiated-version.js';
import { replaceMethod } from './protocol-seam.js';

/*
 * Where this package reaches into a `Client` (SDK 1.x, or `@modelcontextprotocol/client` 2.x), and
 * every difference between the two lines on the client side: the arguments of `callTool`, where the
 * negotiated version is kept. What a Client shares with a low-level Server (its handlers, messages,
 * responses) is protocol-seam.ts's.
 */

type SessionClient = Client & { getNegotiatedProtocolVersion?: () => unknown };

/** `connected(transport)` just before each `connect(transport)` of `client`. */
export function onConnect(client: object, connected: (transport: unknown) => void): void {
  replaceMethod(
    client,
    'connect',
    (connect) =>
      function connectWatched(this: unknown, transport: unknown, ...rest: unknown[]) {
        connected(transport);
        return connect.call(this, transport, ...rest);
      },
  );
}

/** What `client` knows of its session now: its transport, session id and protocol version. */
export function clientSessionFacts(client: object): McpSessionFacts {
  const session = client as SessionClient;
  try {
    const transport = session.transport;
    return { sessionId: transport?.sessionId, protocolVersion: protocolVersionOf(session), transport };
  } catch {
    return {}; // a transport getter that throws: the operation is recorded without its session
  }
}

/** 2.x keeps the negotiated version on the client; 1.x only on its Streamable HTTP transport, else as seen. */
export function protocolVersionOf(client: object): unknown {
  try {
    const session = client as SessionClient;
    const negotiated = session.getNegotiatedProtocolVersion?.();
    if (typeof negotiated === 'string') return negotiated;
    return (session.transport as { protocolVersion?: unknown } | undefined)?.protocolVersion ?? seenVersion(client);
  } catch {
    return undefined;
  }
}

/** What a `callTool` asks, read once from its arguments. */
export interface ClientToolCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly signal: AbortSignal | undefined;
}

/**
 * What the listener is told of a `callTool(params, ...)`; `undefined` when params have no string
 * name or reading them throws (a revoked Proxy, a getter that throws): the SDK then sees the call as
 * the app made it and reports it as it would without the adapter, a rejected promise.
 */
export function toolCallOf(args: readonly unknown[]): ClientToolCall | undefined {
  const params = args[0] as { name?: unknown; arguments?: unknown } | null | undefined;
  if (params === null || typeof params !== 'object') return undefined;
  try {
    const toolName = params.name;
    if (typeof toolName !== 'string') return undefined;
    return { toolName, input: params.arguments, signal: requestSignal(args) };
  } catch {
    return undefined;
  }
}

/**
 * The request options' signal: `callTool(params, resultSchema?, options?)` in 1.x,
 * `callTool(params, options?)` in 2.x. A result schema (zod, a Standard Schema) is not options.
 */
function requestSignal(args: readonly unknown[]): AbortSignal | undefined {
  for (const candidate of args.slice(1, 3)) {
    if (candidate === null || typeof candidate !== 'object') continue;
    const signal = (candidate as { signal?: unknown }).signal;
    if (signal instanceof AbortSignal) return signal;
  }
  return undefined;
}
