import { replaceMethod } from '../mcp/protocol-seam.js';

/*
 * Where this package reaches into the client `createMCPClient` of `@ai-sdk/mcp` returns (its
 * `DefaultMCPClient`, not the MCP SDK's `Client`), and the differences between its lines: the tools of
 * `client.tools()` call the client's own `callTool` (as `self.callTool`): 1.x
 * `callTool({ name, args, options: { abortSignal, toolCallId, ... } })` (the AI SDK's execute options),
 * 2.x `callTool({ name, arguments, options: { signal } })` (no call id). It sends through its
 * `request({ request, resultSchema, options })`, which takes the JSON-RPC id from `requestMessageId`
 * synchronously. `callTool` and `request` are replaced on the instance.
 */

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * The client type `instrumentClient` accepts: `createMCPClient`'s `MCPClient` (its public type has
 * `tools()`; the `callTool` its tools call is checked at run time).
 */
export interface AiSdkMcpClientLike {
  tools(...args: never[]): Promise<unknown>;
}

/** Whether `client` has the `callTool` the tools of its `tools()` call. */
export function hasCallTool(client: object): boolean {
  try {
    return typeof (client as { callTool?: unknown }).callTool === 'function';
  } catch {
    return false;
  }
}

/** What one `callTool({ name, args, options })` asks. */
export interface AiSdkToolCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly signal: AbortSignal | undefined;
  /** The AI SDK's call id (1.x `options.toolCallId`), when the call comes from one of `tools()`' tools. */
  readonly toolCallId: string | undefined;
}

/** The `callTool` argument (either line), read once; `undefined` when it has no string name or cannot be read. */
export function toolCallOf(argument: unknown): AiSdkToolCall | undefined {
  try {
    const call = argument as { name?: unknown; args?: unknown; arguments?: unknown; options?: unknown };
    if (typeof call.name !== 'string') return undefined;
    const options = (call.options ?? {}) as { abortSignal?: unknown; signal?: unknown; toolCallId?: unknown };
    const signal = options.abortSignal ?? options.signal;
    return {
      toolName: call.name,
      input: 'arguments' in call ? call.arguments : call.args,
      signal: signal instanceof AbortSignal ? signal : undefined,
      toolCallId: typeof options.toolCallId === 'string' ? options.toolCallId : undefined,
    };
  } catch {
    return undefined;
  }
}

/** Replaces the client's `callTool` by `make(original)`. */
export function onCallTool(client: object, make: (original: Method) => Method): void {
  replaceMethod(client, 'callTool', make);
}

/**
 * `send(request, original)` in place of each `request({ request, resultSchema, options })` of the
 * client: `request` is the JSON-RPC `{ method, params }` it sends, `send` hands the original a stand-in.
 */
export function onRequest(
  client: object,
  send: (message: object, sendMessage: (message: object) => unknown, client: object) => unknown,
): void {
  replaceMethod(
    client,
    'request',
    (original) =>
      function requestObserved(this: unknown, argument: unknown, ...rest: unknown[]) {
        const message = (argument as { request?: unknown } | null | undefined)?.request;
        if (message === null || typeof message !== 'object') return original.call(this, argument, ...rest);
        const sendMessage = (next: object) => original.call(this, { ...(argument as object), request: next }, ...rest);
        return send(message, sendMessage, this as object);
      },
  );
}

/** The id the client gives its next request (`requestMessageId`). */
export function nextRequestId(client: object): unknown {
  try {
    return (client as { requestMessageId?: unknown }).requestMessageId;
  } catch {
    return undefined;
  }
}

/** What the client knows of its session: its transport's session id and protocol version (set at `init()`). */
export function sessionFactsOf(client: object): { transport: unknown; sessionId: unknown; protocolVersion: unknown } {
  try {
    const transport = (client as { transport?: unknown }).transport as
      | { sessionId?: unknown; protocolVersion?: unknown }
      | undefined;
    return { transport, sessionId: transport?.sessionId, protocolVersion: transport?.protocolVersion };
  } catch {
    return { transport: undefined, sessionId: undefined, protocolVersion: undefined };
  }
}
