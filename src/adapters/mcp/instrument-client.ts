import { logger } from '../../internal/logger.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import { operationTelemetryOf } from '../../otel/operation-telemetry.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { injectIntoMessages } from './client-messages.js';
import { clientSessionFacts, onConnect } from './client-seam.js';
import { observeClientToolCalls } from './client-tool-calls.js';
import { onUnhandledRequests } from './protocol-seam.js';
import { notePeerAnswers } from './sdk-own-errors.js';
import type { McpClientLike } from './sdk-types.js';
import { type OperationsWatch, recordUnhandledRequest, watchOperations } from './server-operations.js';
import { startSession, watchOwnClose } from './session-duration.js';

/*
 * A client, observed: each line below is one thing observed and the module that does it; what each
 * needs of the SDK it gets from client-seam.ts and protocol-seam.ts, which alone read and patch the
 * SDK's objects.
 */

const instrumentedClients = new WeakMap<object, ToolCallListener<unknown>>();

/**
 * Observes every `callTool` of an MCP `Client` (`@modelcontextprotocol/sdk` 1.x or
 * `@modelcontextprotocol/client` 2.x), as a remote call (`ToolCallInfo.remote`, side `client`), and
 * sends the active trace context with every request and notification of the client (but one the SDK
 * merges: client-messages.ts), in `params._meta` (the fields the global propagator writes) of a
 * stand-in for the app's params: the app's objects are untouched and read through as they are.
 * Returns the same client; instrumenting it again is a no-op (combine listeners with
 * `ToolCallListeners.composite` instead).
 *
 * The JSON-RPC request id is assigned inside the SDK when the request is sent, after the listener's
 * `beforeCall`: it is set on the call's span then (`jsonrpc.request.id`), not in `ToolCallInfo`.
 */
export function instrumentClient<McpClient extends McpClientLike, Context = unknown>(
  client: McpClient,
  listener: ToolCallListener<Context>,
): McpClient {
  if (client === null || typeof client !== 'object' || typeof client.callTool !== 'function') {
    throw new TypeError(`instrumentClient: \`client\` must be an MCP Client, got ${describe(client)}`);
  }
  assertListener(listener, 'instrumentClient');
  const existing = instrumentedClients.get(client);
  if (existing !== undefined) {
    if (existing !== listener) {
      logger.warn('instrumentClient: this Client is already instrumented; the new listener is ignored');
    }
    return client;
  }
  instrumentedClients.set(client, listener as ToolCallListener<unknown>);
  markObserved(client); // observed once: the zero-code instrumentation leaves it alone
  // every message the client sends carries its context; with an OpenTelemetry listener, the
  // operations that are not tool calls get their own CLIENT spans (client-messages.ts)
  const telemetry = operationTelemetryOf(listener);
  const facts = () => clientSessionFacts(client);
  injectIntoMessages(client, telemetry === undefined ? undefined : { telemetry, facts });
  // a peer's error answer told from the SDK's own failure of the same code (sdk-own-errors.ts)
  notePeerAnswers(client);
  if (telemetry !== undefined) {
    // each connection's session duration (session-duration.ts)
    onConnect(client, (transport) => startSession(telemetry, 'client', transport, facts, client));
    watchOwnClose(client);
    // what the server sends the client (server-operations.ts, unhandled-requests.ts)
    watchServerRequests({ lowLevel: client, telemetry, facts });
  }
  // the tool calls (client-tool-calls.ts)
  observeClientToolCalls(client, listener as ToolCallListener<unknown>);
  return client;
}

/**
 * What the server sends the client (sampling/createMessage, elicitation/create, roots/list, ping,
 * notifications): a SERVER span each in the client, child of the server's span, as the server
 * records the client's requests (server-operations.ts); one the client has no handler for is the
 * `-32601` the SDK answers (unhandled-requests.ts).
 */
export function watchServerRequests(watch: OperationsWatch): void {
  watchOperations(watch);
  onUnhandledRequests(watch.lowLevel, 'server-requests', (method, request) =>
    recordUnhandledRequest(watch, method, request),
  );
}
