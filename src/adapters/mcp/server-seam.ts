import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { seenVersion } from './negotiated-version.js';
import { replaceMethod } from './protocol-seam.js';

/*
 * Where this package reaches into an `McpServer` (SDK 1.x, or `@modelcontextprotocol/server` 2.x),
 * and every difference between the two lines on the server side: what a tool is handed, which field
 * of a `RegisteredTool` McpServer calls, where the negotiated version is kept, and the mark left on
 * the request object a tool ran for. The modules that
 * observe a server subscribe here (and to protocol-seam.ts for its low-level Server's handlers); none
 * reads the SDK's fields itself.
 */

export type ToolFunction = (this: unknown, ...params: unknown[]) => unknown;

interface ServerInternals {
  _registeredTools?: unknown;
  _registeredPrompts?: unknown;
  tool?: unknown;
  registerTool?: unknown;
  connect?: unknown;
  experimental?: { tasks?: Record<string, unknown> };
  /** The low-level `Server`: its transport, handlers and negotiated protocol version. */
  server?: unknown;
}

/** McpServer's tools by name (`_registeredTools`, both lines), or `undefined` when it has none of that shape. */
export function registeredToolsOf(server: object): Record<string, RegisteredTool> | undefined {
  const registry = (server as ServerInternals)._registeredTools;
  return registry !== null && typeof registry === 'object' ? (registry as Record<string, RegisteredTool>) : undefined;
}

/** McpServer's low-level `Server` (`server`, both lines); read safely, for any object. */
export function lowLevelOf(server: object): unknown {
  try {
    return (server as ServerInternals).server;
  } catch {
    return undefined;
  }
}

/**
 * `registered(tool, name)` for every tool McpServer registers from now on: its `registerTool()`,
 * 1.x `tool()` and 1.x `experimental.tasks.registerToolTask()`, replaced on this instance.
 */
export function onToolRegistered(server: object, registered: (tool: RegisteredTool, name: string) => void): void {
  const observe = (original: ToolFunction): ToolFunction =>
    function registerObserved(this: unknown, ...args: unknown[]) {
      const tool = original.apply(this, args) as RegisteredTool;
      registered(tool, args[0] as string);
      return tool;
    };
  replaceMethod(server, 'registerTool', observe);
  replaceMethod(server, 'tool', observe); // 2.x has no tool()
  try {
    const tasks = (server as ServerInternals).experimental?.tasks;
    if (tasks !== undefined && tasks !== null) replaceMethod(tasks, 'registerToolTask', observe);
  } catch {
    // no experimental tasks API on this SDK line: nothing to watch
  }
}

/** `connected(transport)` just before each `connect(transport)` of McpServer (its low-level Server's). */
export function onConnect(server: object, connected: (transport: unknown) => void): void {
  replaceMethod(
    server,
    'connect',
    (connect) =>
      function connectWatched(this: unknown, transport: unknown, ...rest: unknown[]) {
        connected(transport);
        return connect.call(this, transport, ...rest);
      },
  );
}

/**
 * The `connect` `onConnect` put on `server` itself (it watches the transport, then runs the class's),
 * if there is one: an instance that could not take it (a frozen one) has none.
 */
export function ownConnect(server: object): ToolFunction | undefined {
  try {
    const own = Object.getOwnPropertyDescriptor(server, 'connect')?.value;
    return typeof own === 'function' ? (own as ToolFunction) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The field of `tool` McpServer calls on each call, made an accessor that hands it `observe(current)`:
 * 2.x calls `executor` (a function of `(args, ctx)` it makes at registration and on `update()`;
 * `handler` is then only kept for reading), 1.x `handler`; exactly one, or a 2.x call would count
 * twice. `update({ callback })` and a direct assignment stay observed. Returns how the function
 * McpServer calls is handed its request.
 */
export function observeToolFunction(tool: RegisteredTool, observe: (fn: unknown) => unknown): ToolRequestReader {
  const field = typeof (tool as { executor?: unknown }).executor === 'function' ? 'executor' : 'handler';
  let observed = observe((tool as unknown as Record<string, unknown>)[field]);
  Object.defineProperty(tool, field, {
    configurable: true,
    enumerable: true,
    get: () => observed,
    set: (next: unknown) => {
      observed = observe(next);
    },
  });
  return field === 'executor' ? requestOfExecutor : requestOfHandler;
}

/** Follows `tool`'s renames through its `update()`: `renamed(name)` with each new name. */
export function onRename(tool: RegisteredTool, renamed: (name: string) => void): void {
  replaceMethod(
    tool,
    'update',
    (update) =>
      function updateObserved(this: unknown, updates: unknown) {
        const name = (updates as { name?: unknown } | null | undefined)?.name;
        if (typeof name === 'string') renamed(name);
        return update.call(this, updates);
      },
  );
}

/** Whether McpServer offers the prompt `name` (`_registeredPrompts` on both SDK lines), as it checks before answering. */
export function hasPrompt(server: object, name: string): boolean {
  try {
    const prompts = (server as ServerInternals)._registeredPrompts;
    if (prompts === null || typeof prompts !== 'object' || !Object.hasOwn(prompts, name)) return false;
    return (prompts as Record<string, { enabled?: unknown } | undefined>)[name]?.enabled !== false;
  } catch {
    return false;
  }
}

/** The low-level Server's transport (both SDK lines have a `transport` getter). */
export function transportOf(lowLevel: unknown): unknown {
  try {
    return (lowLevel as { transport?: unknown } | undefined)?.transport;
  } catch {
    return undefined;
  }
}

/** 2.x keeps the negotiated protocol version on the low-level Server; 1.x does not: the one its initialize answered. */
export function negotiatedVersion(lowLevel: unknown): unknown {
  try {
    const get = (lowLevel as { getNegotiatedProtocolVersion?: unknown } | undefined)?.getNegotiatedProtocolVersion;
    return (typeof get === 'function' ? get.call(lowLevel) : undefined) ?? seenVersion(lowLevel);
  } catch {
    return undefined;
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

export type ToolRequestReader = (params: readonly unknown[]) => HandlerRequest;

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
function requestOfHandler(params: readonly unknown[]): HandlerRequest {
  const hasArgs = params.length >= 2;
  const input = hasArgs ? params[0] : undefined;
  const extra = objectOr<Extra1>(hasArgs ? params[1] : params[0]);
  // one literal, no closure or spread: read at every call of every tool
  try {
    const requestInfo = extra.requestInfo;
    const headers = objectOr<Record<string, unknown>>(requestInfo?.headers);
    return {
      input,
      requestId: extra.requestId,
      signal: extra.signal instanceof AbortSignal ? extra.signal : undefined,
      sessionId: extra.sessionId,
      meta: extra._meta,
      protocolVersion: headers[PROTOCOL_VERSION_HEADER],
      overHttp: requestInfo !== undefined,
    };
  } catch {
    return noFacts(input);
  }
}

interface Context2 {
  sessionId?: unknown;
  mcpReq?: { id?: unknown; signal?: unknown; _meta?: unknown; envelope?: Record<string, unknown> };
  http?: { req?: { headers?: { get?: (name: string) => unknown } } };
}

/** SDK 2.x: `executor(args, ctx)`; `args` is undefined for a tool without input schema. */
function requestOfExecutor(params: readonly unknown[]): HandlerRequest {
  const input = params[0];
  const ctx = objectOr<Context2>(params[1]);
  try {
    const request = objectOr<NonNullable<Context2['mcpReq']>>(ctx.mcpReq);
    const http = ctx.http;
    const headerVersion = http?.req?.headers?.get?.(PROTOCOL_VERSION_HEADER);
    return {
      input,
      requestId: request.id,
      signal: request.signal instanceof AbortSignal ? request.signal : undefined,
      sessionId: ctx.sessionId,
      meta: request._meta,
      protocolVersion: objectOr<Record<string, unknown>>(request.envelope)[PROTOCOL_VERSION_META_KEY] ?? headerVersion,
      overHttp: http !== undefined && http !== null,
    };
  } catch {
    return noFacts(input);
  }
}

/**
 * What a request handler of the low-level Server is handed with the request (1.x `extra`, 2.x
 * `ctx`, told by its `mcpReq`) says of the request; `input` as given.
 */
export function requestOfHandlerExtra(input: unknown, extra: unknown): HandlerRequest {
  const isContext = extra !== null && typeof extra === 'object' && 'mcpReq' in extra;
  return isContext ? requestOfExecutor([input, extra]) : requestOfHandler([input, extra]);
}

function objectOr<T>(value: unknown): Partial<T> {
  return value !== null && typeof value === 'object' ? (value as Partial<T>) : {};
}

/** A request object whose getters throw (a Proxy, a hostile caller) yields no facts, not a crash. */
function noFacts(input: unknown): HandlerRequest {
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

type Stamping = new (target: object) => object;
/** A base class whose constructor returns the object it is given: a subclass stamps its private fields on it. */
const StampedObject = function stampedObject(target: object) {
  return target;
} as unknown as Stamping;

/**
 * The mark of a request object (1.x `extra`, 2.x `ctx`, made by McpServer for one request) that a
 * tool ran for: a private field of this class, stamped on the object, so that no code but this
 * module's sees it (not the tool's spread, `util.inspect`, `Reflect.ownKeys`, nor a Proxy's traps);
 * a WeakSet entry for an object the engine will not stamp (docs/decisions.md, "The open call kept
 * on its span, not in a WeakMap").
 */
class ToolRanMark extends StampedObject {
  #toolRan = true;

  static isOn(request: object): boolean {
    return #toolRan in request;
  }
}

const markedRequests = new WeakSet<object>();

/** Marks `request` as one a tool ran for. */
export function markRequest(request: object): void {
  if (ToolRanMark.isOn(request)) return;
  try {
    new ToolRanMark(request);
    return;
  } catch {
    // an engine where a non-extensible object takes no private field either
  }
  markedRequests.add(request);
}

/** Whether a tool ran for `request` (`markRequest`). */
export function isMarkedRequest(request: object): boolean {
  return ToolRanMark.isOn(request) || markedRequests.has(request);
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
