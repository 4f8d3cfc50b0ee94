import { context } from '@opentelemetry/api';
import { logger } from '../../internal/logger.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import { type OperationTelemetry, operationTelemetryOf } from '../../otel/operation-telemetry.js';
import { MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { injectIntoMessages } from './client-messages.js';
import { observeToolsCallHandler } from './handler-tool-calls.js';
import { contextWithPeer, watchHttpPeers } from './http-peer.js';
import { watchInitialize } from './negotiated-version.js';
import { isLowLevelServer, onUnhandledRequests } from './protocol-seam.js';
import { observeUnhandledToolCall, type RejectionWatch, watchRejectedToolCalls } from './rejected-requests.js';
import { notePeerAnswers } from './sdk-own-errors.js';
import type { LowLevelServerLike, McpServerLike } from './sdk-types.js';
import { recordUnhandledRequest, watchOperations } from './server-operations.js';
import {
  hasPrompt,
  lowLevelOf,
  negotiatedVersion,
  onConnect,
  onToolRegistered,
  registeredToolsOf,
  sessionIdOf,
  transportOf,
} from './server-seam.js';
import { observeServerTool } from './server-tool-calls.js';
import { startSession, watchOwnClose } from './session-duration.js';

/*
 * A server, observed: each line below is one thing observed and the module that does it; what each
 * needs of the SDK it gets from server-seam.ts (McpServer) and protocol-seam.ts (a low-level Server,
 * an McpServer's own or one of its own), which alone read and patch the SDK's objects. The observers subscribe; none depends on
 * another having come first, nor on the app registering its tools before or after this call.
 *
 * The MCP operations that are not tool calls (initialize, tools/list, resources/*, prompts/*, ping,
 * notifications, ...) never reach the listener. When it is (or composes) an
 * `OpenTelemetryToolCallListener`, they get their own SERVER spans and operation durations with its
 * tracer and meter (server-operations.ts), and each connection its session duration (session-duration.ts).
 */

const instrumentedServers = new WeakMap<object, ToolCallListener<unknown>>();

/**
 * Observes every tool call an MCP server handles, as a remote call (`ToolCallInfo.remote`, side
 * `server`, the JSON-RPC id as its `requestId`) whose parent is the client's span when the request's
 * `_meta` carries a trace context, and (with an OpenTelemetry listener) its other operations.
 * `server` is an `McpServer` (`@modelcontextprotocol/sdk` 1.x or `@modelcontextprotocol/server`
 * 2.x: each registered tool, before and after this call) or a low-level `Server` of either line (its
 * `tools/call` request handler, set before or after this call, as the tool: a server written on
 * `setRequestHandler(CallToolRequestSchema, …)`, each of fastmcp's `server.sessions[i].server`).
 * Before or after `connect()`; the session's duration and (1.x) its negotiated protocol version need
 * it before. Returns the same server. An McpServer and its own low-level Server are one server:
 * instrumenting either again is a no-op (combine listeners with `ToolCallListeners.composite` instead).
 */
export function instrumentServer<Server extends McpServerLike | LowLevelServerLike, Context = unknown>(
  server: Server,
  listener: ToolCallListener<Context>,
): Server {
  const isMcpServer =
    server !== null && typeof server === 'object' && typeof (server as McpServerLike).registerTool === 'function';
  if (!isMcpServer && !isLowLevelServer(server)) {
    throw new TypeError(
      `instrumentServer: \`server\` must be an McpServer or a low-level MCP Server, got ${describe(server)}`,
    );
  }
  assertListener(listener, 'instrumentServer');
  const registry = isMcpServer ? registeredToolsOf(server) : undefined;
  if (isMcpServer && registry === undefined) {
    throw new TypeError(
      'instrumentServer: `server` has no `_registeredTools`: this @modelcontextprotocol/sdk version is not supported',
    );
  }
  const lowLevel = isMcpServer ? lowLevelOf(server) : server;
  // observed once: an McpServer and its low-level Server are one server, whichever came first
  const existing = instrumentedServers.get(server) ?? instrumentedServerOf(lowLevel);
  if (existing !== undefined) {
    if (existing !== listener) {
      logger.warn('instrumentServer: this MCP server is already instrumented; the new listener is ignored');
    }
    return server;
  }
  const observing = listener as ToolCallListener<unknown>;
  instrumentedServers.set(server, observing);
  markObserved(server); // observed once: the zero-code instrumentation leaves it alone
  if (isObject(lowLevel) && lowLevel !== server) {
    instrumentedServers.set(lowLevel, observing);
    markObserved(lowLevel); // and its low-level Server, which zero-code also hooks
  }
  // the tool calls: McpServer's registered tools (server-tool-calls.ts), or a low-level Server's handler
  if (registry !== undefined) observeMcpServerTools(server, registry, lowLevel, observing);
  else observeHandlerTools(lowLevel as object, observing);
  // the other operations, with an OpenTelemetry listener (server-operations.ts)
  const telemetry = operationTelemetryOf(listener);
  observeOperations(lowLevel, telemetry, registry === undefined ? undefined : (name) => hasPrompt(server, name));
  // each connection: its HTTP requests' peers and its session's duration; McpServer's connect() is its low-level Server's
  const connected = transportOf(lowLevel);
  if (connected !== undefined) {
    // already connected (fastmcp hands its sessions' servers out after start()): this one transport's peers
    watchPeers(connected);
    logger.debug(
      'instrumentServer: this MCP server is already connected: the duration of its session (and, on SDK 1.x, its negotiated protocol version) is not recorded',
    );
  }
  onConnect(server, (transport) => {
    watchPeers(transport);
    if (telemetry !== undefined) {
      startSession(telemetry, 'server', transport, () => ({ protocolVersion: negotiatedVersion(lowLevel) }), lowLevel);
    }
  });
  if (telemetry !== undefined) watchOwnClose(lowLevel); // McpServer's close() is its low-level Server's
  return server;
}

function instrumentedServerOf(lowLevel: unknown): ToolCallListener<unknown> | undefined {
  return isObject(lowLevel) ? instrumentedServers.get(lowLevel) : undefined;
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/** Session facts a request does not carry: the transport, the negotiated version. */
const factsOf = (lowLevel: unknown) => () => ({
  transport: transportOf(lowLevel),
  protocolVersion: negotiatedVersion(lowLevel),
});

/** An McpServer's tools: each registered tool's function, and the requests McpServer refuses before one runs. */
function observeMcpServerTools(
  server: object,
  registry: object,
  lowLevel: unknown,
  listener: ToolCallListener<unknown>,
): void {
  // every tool, registered before or after this call (server-tool-calls.ts)
  for (const [name, tool] of Object.entries(registry)) observeServerTool(tool, name, listener, lowLevel);
  onToolRegistered(server, (tool, name) => observeServerTool(tool, name, listener, lowLevel));
  // the tools/call requests McpServer refuses before a tool runs (rejected-requests.ts)
  const refusals = { lowLevel, registry, listener, facts: factsOf(lowLevel) };
  watchRejectedToolCalls(refusals);
  // a tools/call to a server with no tool yet: the SDK answers -32601 (unhandled-requests.ts)
  onUnhandledToolCalls(lowLevel, refusals);
}

/** A low-level Server's tools: its `tools/call` handler (handler-tool-calls.ts). */
function observeHandlerTools(lowLevel: object, listener: ToolCallListener<unknown>): void {
  if (!observeToolsCallHandler({ lowLevel, listener })) {
    logger.warn(
      'instrumentServer: the request handlers of this MCP Server cannot be read (an SDK version of another shape): its tool calls are not observed',
    );
  }
  onUnhandledToolCalls(lowLevel, { lowLevel, registry: NO_TOOLS, listener, facts: factsOf(lowLevel) });
}

const NO_TOOLS = Object.freeze({});

function onUnhandledToolCalls(lowLevel: unknown, refusals: RejectionWatch): void {
  onUnhandledRequests(lowLevel, 'unhandled-tool-calls', (method, request) => {
    if (method === MCP_METHOD_NAME_VALUE_TOOLS_CALL) observeUnhandledToolCall(refusals, request);
  });
}

/**
 * The operations that are not tool calls, with an OpenTelemetry listener (server-operations.ts), the
 * version initialize settled on (1.x does not keep it: negotiated-version.ts), the context of what
 * the server sends (client-messages.ts) and a peer's error answer told from the SDK's own failure
 * (sdk-own-errors.ts).
 */
function observeOperations(
  lowLevel: unknown,
  telemetry: OperationTelemetry | undefined,
  hasPromptOf: ((name: string) => boolean) | undefined,
): void {
  watchInitialize(lowLevel);
  const facts = factsOf(lowLevel);
  const operations = telemetry === undefined ? undefined : { lowLevel, telemetry, facts, hasPrompt: hasPromptOf };
  if (operations !== undefined) watchOperations(operations);
  // what the server sends the client (sampling/createMessage, elicitation/create, roots/list, ping,
  // notifications) carries its context, in a CLIENT span of its own with an OpenTelemetry listener
  if (isObject(lowLevel)) {
    const sessionFacts = () => ({ ...facts(), sessionId: sessionIdOf(transportOf(lowLevel)) });
    injectIntoMessages(lowLevel, telemetry === undefined ? undefined : { telemetry, facts: sessionFacts });
    notePeerAnswers(lowLevel);
  }
  // the requests but tools/call the SDK answers -32601 without a handler (unhandled-requests.ts)
  if (operations !== undefined) {
    onUnhandledRequests(lowLevel, 'unhandled-operations', (method, request) => {
      if (method !== MCP_METHOD_NAME_VALUE_TOOLS_CALL) recordUnhandledRequest(operations, method, request);
    });
  }
}

function watchPeers(transport: unknown): void {
  watchHttpPeers(transport, (peer, run) => context.with(contextWithPeer(context.active(), peer), run));
}
