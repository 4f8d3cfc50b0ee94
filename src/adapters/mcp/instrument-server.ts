import { context } from '@opentelemetry/api';
import { logger } from '../../internal/logger.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import { operationTelemetryOf } from '../../otel/operation-telemetry.js';
import { MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../otel/semconv.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { injectIntoMessages } from './client-messages.js';
import { contextWithPeer, watchHttpPeers } from './http-peer.js';
import { watchInitialize } from './negotiated-version.js';
import { onUnhandledRequests } from './protocol-seam.js';
import { observeUnhandledToolCall, watchRejectedToolCalls } from './rejected-requests.js';
import { notePeerAnswers } from './sdk-own-errors.js';
import type { McpServerLike } from './sdk-types.js';
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
 * needs of the SDK it gets from server-seam.ts (McpServer) and protocol-seam.ts (its low-level
 * Server), which alone read and patch the SDK's objects. The observers subscribe; none depends on
 * another having come first, nor on the app registering its tools before or after this call.
 *
 * The MCP operations that are not tool calls (initialize, tools/list, resources/*, prompts/*, ping,
 * notifications, ...) never reach the listener. When it is (or composes) an
 * `OpenTelemetryToolCallListener`, they get their own SERVER spans and operation durations with its
 * tracer and meter (server-operations.ts), and each connection its session duration (session-duration.ts).
 */

const instrumentedServers = new WeakMap<object, ToolCallListener<unknown>>();

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
  if (server === null || typeof server !== 'object' || typeof server.registerTool !== 'function') {
    throw new TypeError(`instrumentServer: \`server\` must be an McpServer, got ${describe(server)}`);
  }
  assertListener(listener, 'instrumentServer');
  const registry = registeredToolsOf(server);
  if (registry === undefined) {
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

  const lowLevel = lowLevelOf(server);
  const facts = () => ({ transport: transportOf(lowLevel), protocolVersion: negotiatedVersion(lowLevel) });
  // the version initialize settled on, for 1.x, which does not keep it (negotiated-version.ts)
  watchInitialize(lowLevel);
  // the tool calls: every tool, registered before or after this call (server-tool-calls.ts)
  for (const [name, tool] of Object.entries(registry)) observeServerTool(tool, name, observing, lowLevel);
  onToolRegistered(server, (tool, name) => observeServerTool(tool, name, observing, lowLevel));
  // the tools/call requests McpServer refuses before a tool runs (rejected-requests.ts)
  const refusals = { lowLevel, registry, listener: observing, facts };
  watchRejectedToolCalls(refusals);
  // the other operations, with an OpenTelemetry listener (server-operations.ts)
  const telemetry = operationTelemetryOf(listener);
  const operations =
    telemetry === undefined
      ? undefined
      : { lowLevel, telemetry, facts, hasPrompt: (name: string) => hasPrompt(server, name) };
  if (operations !== undefined) watchOperations(operations);
  // what the server sends the client (sampling/createMessage, elicitation/create, roots/list, ping,
  // notifications) carries its context, in a CLIENT span of its own with an OpenTelemetry listener
  // (client-messages.ts); a peer's error answer told from the SDK's own failure (sdk-own-errors.ts)
  if (lowLevel !== null && typeof lowLevel === 'object') {
    const sessionFacts = () => ({ ...facts(), sessionId: sessionIdOf(transportOf(lowLevel)) });
    injectIntoMessages(lowLevel, telemetry === undefined ? undefined : { telemetry, facts: sessionFacts });
    notePeerAnswers(lowLevel);
  }
  // the requests the SDK answers -32601 without a handler (unhandled-requests.ts)
  onUnhandledRequests(lowLevel, 'instrumentServer', (method, request) => {
    if (method === MCP_METHOD_NAME_VALUE_TOOLS_CALL) observeUnhandledToolCall(refusals, request);
    else if (operations !== undefined) recordUnhandledRequest(operations, method, request);
  });
  // each connection: its HTTP requests' peers (http-peer.ts) and its session's duration (session-duration.ts)
  onConnect(server, (transport) => {
    watchHttpPeers(transport, (peer, run) => context.with(contextWithPeer(context.active(), peer), run));
    if (telemetry !== undefined) {
      startSession(telemetry, 'server', transport, () => ({ protocolVersion: negotiatedVersion(lowLevel) }), lowLevel);
    }
  });
  if (telemetry !== undefined) watchOwnClose(lowLevel); // McpServer's close() is its low-level Server's
  return server;
}
