import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { context } from '@opentelemetry/api';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import { type OperationTelemetry, operationTelemetryOf } from '../../otel/operation-telemetry.js';
import { MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { mcpAttributes } from './attributes.js';
import { claudeToolUseCorrelation, claudeToolUseId } from './claude-tool-use-id.js';
import { injectIntoMessages } from './client-messages.js';
import { contextWithPeer, httpPeerOf, watchHttpPeers } from './http-peer.js';
import { seenVersion, watchInitialize } from './negotiated-version.js';
import { extractTraceContext } from './propagation.js';
import { markToolRan, observeUnhandledToolCall, watchRejectedToolCalls } from './rejected-requests.js';
import { serverCall } from './remote-call.js';
import { notePeerAnswers } from './sdk-own-errors.js';
import type { McpServerLike } from './sdk-types.js';
import { recordUnhandledRequest, watchOperations } from './server-operations.js';
import { type HandlerRequest, requestOfExecutor, requestOfHandler, sessionIdOf } from './server-request.js';
import { startSession, watchOwnClose } from './session-duration.js';
import { observedTaskHandler } from './task-tools.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';
import { watchUnhandledRequests } from './unhandled-requests.js';

/*
 * Where the hook sits, and why there.
 *
 * McpServer keeps each tool as a `RegisteredTool` (a public type) in `_registeredTools`, and its
 * `tools/call` handler reads, on every call and after validating the arguments, `tool.handler`
 * (SDK 1.x) or `tool.executor` (2.x: a function of `(args, ctx)` it makes from the handler at
 * registration and on `update()`; `handler` is then only kept for reading). Wrapping
 * that `tools/call` request handler instead would only see the result after McpServer has already
 * turned a thrown error into an `isError` text (the listener would never get the original error),
 * and it would also count unknown tools and invalid arguments as tool calls. Overriding the private
 * `executeToolHandler` would fail silently if it were renamed. So:
 *
 * - tools already registered: read once from `_registeredTools` (checked, a clear error if absent);
 * - tools registered later: the public `registerTool()` (and 1.x `tool()`) of this server instance
 *   are wrapped to instrument the `RegisteredTool` they return;
 * - the field McpServer calls (`executor` when there is one, else `handler`) of each `RegisteredTool`
 *   becomes an accessor that hands McpServer an observed version of the current function, so
 *   `update({ callback })` and a direct assignment stay observed; exactly one of them, so a call is
 *   observed once;
 * - each observed call runs in the context extracted from the request's `_meta` (the client's span
 *   is its parent; the ambient context, e.g. the HTTP request's span, is linked).
 * - `update()` is wrapped only to follow renames, so the listener always sees the current name.
 *
 * Task-based tools (1.x `experimental.tasks.registerToolTask`, handlers that are objects): their
 * `createTask` is observed, the call settling with McpServer's answer (task-tools.ts); task tools
 * registered after this call are instrumented through `experimental.tasks.registerToolTask`.
 *
 * The other MCP operations (initialize, tools/list, resources/*, prompts/*, ping, notifications, ...)
 * are not tool calls: the listener never sees them. When it is (or composes) an
 * `OpenTelemetryToolCallListener`, they get their own SERVER spans and operation durations with its
 * tracer and meter (server-operations.ts), and each connection its session duration (session-duration.ts).
 */

const instrumentedServers = new WeakMap<object, ToolCallListener<unknown>>();
const instrumentedTools = new WeakSet<object>();

type ToolHandler = (...params: unknown[]) => unknown;

interface ServerInternals {
  _registeredTools?: unknown;
  tool?: unknown;
  registerTool?: unknown;
  /** The low-level `Server`: its transport and negotiated protocol version. */
  server?: unknown;
}

/**
 * Observes every tool call an `McpServer` (`@modelcontextprotocol/sdk` 1.x or
 * `@modelcontextprotocol/server` 2.x) handles, tools registered before and after this call, as a
 * remote call (`ToolCallInfo.remote`, side `server`, the JSON-RPC id as its `requestId`) whose parent
 * is the client's span when the request's `_meta` carries a trace context. Returns the same server;
 * instrumenting it again is a no-op (combine listeners with `ToolCallListeners.composite` instead).
 */
export function instrumentServer<Server extends McpServerLike, Context = unknown>(
  server: Server,
  listener: ToolCallListener<Context>,
): Server {
  const internals = server as unknown as ServerInternals;
  if (server === null || typeof server !== 'object' || typeof internals.registerTool !== 'function') {
    throw new TypeError(`instrumentServer: \`server\` must be an McpServer, got ${describe(server)}`);
  }
  assertListener(listener, 'instrumentServer');
  const registry = internals._registeredTools;
  if (registry === null || typeof registry !== 'object') {
    throw new TypeError(
      'instrumentServer: `server` has no `_registeredTools`: this @modelcontextprotocol/sdk version is not supported',
    );
  }
  const existing = instrumentedServers.get(server);
  if (existing !== undefined) {
    if (existing !== listener) {
      logger.warn('instrumentServer: this McpServer is already instrumented; the new listener is ignored');
    }
    return server;
  }
  const observing = listener as ToolCallListener<unknown>;
  instrumentedServers.set(server, observing);
  markObserved(server); // observed once: the zero-code instrumentation leaves it alone

  const lowLevel = internals.server;
  watchInitialize(lowLevel);
  for (const [name, tool] of Object.entries(registry as Record<string, RegisteredTool>)) {
    instrumentTool(tool, name, observing, lowLevel);
  }
  // the tools/call requests McpServer refuses before a tool runs (rejected-requests.ts)
  const watch = {
    lowLevel,
    registry,
    listener: observing,
    facts: () => ({ transport: transportOf(lowLevel), protocolVersion: negotiatedVersion(lowLevel) }),
  };
  watchRejectedToolCalls(watch);
  const telemetry = operationTelemetryOf(listener);
  const operations =
    telemetry === undefined
      ? undefined
      : { lowLevel, telemetry, facts: watch.facts, hasPrompt: (name: string) => hasPrompt(server, name) };
  if (operations !== undefined) watchOperations(operations);
  // what the server sends the client (sampling/createMessage, elicitation/create, roots/list, ping,
  // notifications) carries its context, in a CLIENT span of its own with an OpenTelemetry listener
  if (lowLevel !== null && typeof lowLevel === 'object') {
    const sessionFacts = () => ({ ...watch.facts(), sessionId: sessionIdOf(transportOf(lowLevel)) });
    injectIntoMessages(lowLevel, telemetry === undefined ? undefined : { telemetry, facts: sessionFacts });
    notePeerAnswers(lowLevel);
  }
  // the requests the SDK answers -32601 without a handler (unhandled-requests.ts)
  watchUnhandledRequests(lowLevel, (method, request) => {
    if (method === MCP_METHOD_NAME_VALUE_TOOLS_CALL) observeUnhandledToolCall(watch, request);
    else if (operations !== undefined) recordUnhandledRequest(operations, method, request);
  });
  watchConnections(server, telemetry, lowLevel);
  if (telemetry !== undefined) watchOwnClose(lowLevel); // McpServer's close() is its low-level Server's
  for (const method of ['tool', 'registerTool'] as const) {
    const register = (server as unknown as Record<string, unknown>)[method];
    if (typeof register !== 'function') continue; // 2.x has no tool()
    Object.defineProperty(server, method, {
      configurable: true,
      writable: true,
      value: function registerObserved(this: unknown, ...args: unknown[]): RegisteredTool {
        const registered = register.apply(this, args) as RegisteredTool;
        instrumentTool(registered, args[0] as string, observing, lowLevel);
        watchRejectedToolCalls(watch);
        watchConnections(server, telemetry, lowLevel); // McpServer registers its tools/call handler with the first tool
        return registered;
      },
    });
  }
  watchTaskRegistrations(server, (registered, registeredName) => {
    instrumentTool(registered, registeredName, observing, lowLevel);
    watchRejectedToolCalls(watch);
    watchConnections(server, telemetry, lowLevel);
  });
  return server;
}

/** 1.x `server.experimental.tasks.registerToolTask(name, ...)`: `registered` is each task tool it registers. */
function watchTaskRegistrations(server: object, registered: (tool: RegisteredTool, name: string) => void): void {
  try {
    const tasks = (server as { experimental?: { tasks?: Record<string, unknown> } }).experimental?.tasks;
    const register = tasks?.registerToolTask;
    if (tasks === undefined || typeof register !== 'function') return;
    Object.defineProperty(tasks, 'registerToolTask', {
      configurable: true,
      writable: true,
      value: function registerToolTaskObserved(this: unknown, ...args: unknown[]) {
        const tool = register.apply(this, args) as RegisteredTool;
        registered(tool, args[0] as string);
        return tool;
      },
    });
  } catch {
    // no experimental tasks API on this SDK line: nothing to watch
  }
}

/**
 * The HTTP transports the server connects to are watched for their requests' peers (http-peer.ts),
 * and, with an OpenTelemetry listener, every transport for its session's duration.
 */
function watchConnections(server: object, telemetry: OperationTelemetry | undefined, lowLevel: unknown): void {
  const connect = (server as { connect?: unknown }).connect;
  if (typeof connect !== 'function') return;
  Object.defineProperty(server, 'connect', {
    configurable: true,
    writable: true,
    value: function connectWatched(this: unknown, transport: unknown, ...rest: unknown[]) {
      watchHttpPeers(transport, (peer, run) => context.with(contextWithPeer(context.active(), peer), run));
      if (telemetry !== undefined) {
        startSession(
          telemetry,
          'server',
          transport,
          () => ({ protocolVersion: negotiatedVersion(lowLevel) }),
          lowLevel,
        );
      }
      return connect.call(this, transport, ...rest);
    },
  });
}

function instrumentTool(
  tool: RegisteredTool,
  registeredName: string,
  listener: ToolCallListener<unknown>,
  lowLevel: unknown,
): void {
  if (tool === null || typeof tool !== 'object' || instrumentedTools.has(tool)) return;
  instrumentedTools.add(tool);
  let name = registeredName;

  const update = tool.update;
  if (typeof update === 'function') {
    tool.update = function updateObserved(this: unknown, updates) {
      if (updates !== null && typeof updates === 'object' && typeof updates.name === 'string') name = updates.name;
      return update.call(this, updates);
    } as RegisteredTool['update'];
  }

  // 2.x calls `executor`, 1.x `handler`: observing both would count a 2.x call twice
  const field = typeof (tool as { executor?: unknown }).executor === 'function' ? 'executor' : 'handler';
  const requestOf = field === 'executor' ? requestOfExecutor : requestOfHandler;

  /** The call of `params` (what McpServer hands the handler), observed with `run` as the tool. */
  const observeWith = (params: unknown[], run: () => unknown): unknown => {
    const request: HandlerRequest = requestOf(params);
    const peer = httpPeerOf(context.active());
    const { parent, links } = extractTraceContext(request.meta);
    const call = () =>
      observeCall(
        {
          definition: { name, description: tool.description, inputSchema: tool.inputSchema },
          metadata: { title: tool.title, annotations: tool.annotations, _meta: tool._meta },
          input: request.input,
          toolContext: {
            // the JSON-RPC id is the request's, not the model's tool call id: it is remote.requestId
            toolCallId: claudeToolUseId(request.meta),
            correlation: claudeToolUseCorrelation(claudeToolUseId(request.meta)),
            signal: request.signal,
            framework: FRAMEWORK_MCP,
            attributes: mcpAttributes({
              sessionId: request.sessionId,
              protocolVersion: request.protocolVersion ?? negotiatedVersion(lowLevel),
              transport: transportOf(lowLevel),
              overHttp: request.overHttp,
              peer,
            }),
            remote: serverCall(request.requestId, links),
          },
          run,
          failureOf: (result) => mcpToolFailure(name, result),
          report: reportedResult,
        },
        listener,
      );
    // the listener's span starts in `parent`: the client's span when the request carried it
    return context.with(parent, call);
  };

  const observe = (fn: unknown): unknown => {
    // task handlers are objects ({ createTask, getTask, getTaskResult }): their createTask is observed (task-tools.ts)
    if (fn !== null && typeof fn === 'object') return observedTaskHandler(fn, observeWith);
    if (typeof fn !== 'function') return fn;
    const raw = fn as ToolHandler;
    return function observedHandler(this: unknown, ...params: unknown[]) {
      markToolRan(params);
      return observeWith(params, () => raw.apply(this, params));
    };
  };

  let observed = observe((tool as unknown as Record<string, unknown>)[field]);
  Object.defineProperty(tool, field, {
    configurable: true,
    enumerable: true,
    get: () => observed,
    set: (next: unknown) => {
      observed = observe(next);
    },
  });
}

/** Whether McpServer offers the prompt `name` (`_registeredPrompts` on both SDK lines), as it checks before answering. */
function hasPrompt(server: object, name: string): boolean {
  try {
    const prompts = (server as { _registeredPrompts?: unknown })._registeredPrompts;
    if (prompts === null || typeof prompts !== 'object' || !Object.hasOwn(prompts, name)) return false;
    return (prompts as Record<string, { enabled?: unknown } | undefined>)[name]?.enabled !== false;
  } catch {
    return false;
  }
}

/** The low-level Server's transport (both SDK lines have a `transport` getter). */
function transportOf(lowLevel: unknown): unknown {
  try {
    return (lowLevel as { transport?: unknown } | undefined)?.transport;
  } catch {
    return undefined;
  }
}

/** 2.x keeps the negotiated protocol version on the low-level Server; 1.x does not: the one its initialize answered. */
function negotiatedVersion(lowLevel: unknown): unknown {
  try {
    const get = (lowLevel as { getNegotiatedProtocolVersion?: unknown } | undefined)?.getNegotiatedProtocolVersion;
    return (typeof get === 'function' ? get.call(lowLevel) : undefined) ?? seenVersion(lowLevel);
  } catch {
    return undefined;
  }
}
