import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { trace } from '@opentelemetry/api';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import { operationTelemetryOf } from '../../otel/operation-telemetry.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { type McpSessionFacts, mcpAttributes } from './attributes.js';
import { awaitRequestId, injectIntoMessages } from './client-messages.js';
import { seenVersion } from './negotiated-version.js';
import { withTraceContext } from './propagation.js';
import { clientCall } from './remote-call.js';
import { notePeerAnswers } from './sdk-own-errors.js';
import type { McpClientLike } from './sdk-types.js';
import { type OperationsWatch, recordUnhandledRequest, watchOperations } from './server-operations.js';
import { startSession, watchOwnClose } from './session-duration.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';
import { watchUnhandledRequests } from './unhandled-requests.js';

const instrumentedClients = new WeakMap<object, ToolCallListener<unknown>>();

type CallTool = Client['callTool'];

/**
 * Observes every `callTool` of an MCP `Client` (`@modelcontextprotocol/sdk` 1.x or
 * `@modelcontextprotocol/client` 2.x), as a remote call (`ToolCallInfo.remote`, side `client`), and
 * sends the active trace context with every request and notification of the client, in
 * `params._meta` (the fields the global propagator writes) of a stand-in for the app's params: the
 * app's objects are untouched and read through as they are. Returns the same client; instrumenting it
 * again is a no-op (combine listeners with `ToolCallListeners.composite` instead).
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
  // the operations that are not tool calls: their own spans, only with an OpenTelemetry listener
  const telemetry = operationTelemetryOf(listener);
  const facts = () => clientSessionFacts(client);
  injectIntoMessages(client, telemetry === undefined ? undefined : { telemetry, facts });
  notePeerAnswers(client);
  if (telemetry !== undefined) {
    watchSession(client, (transport) => startSession(telemetry, 'client', transport, facts, client));
    watchOwnClose(client);
    watchServerRequests({ lowLevel: client, telemetry, facts });
  }

  const callTool = client.callTool as unknown as CallTool;
  const observedCallTool = function observedCallTool(this: Client, ...args: Parameters<CallTool>) {
    const [params] = args;
    const request = readRequest(params, args);
    if (request === undefined) return callTool.apply(this, args); // the SDK reports its own usage errors
    const { toolName, input, signal } = request;
    const client = this as Client & { getNegotiatedProtocolVersion?: () => unknown };
    const callerSpan = trace.getActiveSpan();
    return observeCall(
      {
        definition: { name: toolName },
        metadata: {},
        input,
        toolContext: {
          signal,
          framework: FRAMEWORK_MCP,
          attributes: mcpAttributes({
            sessionId: this.transport?.sessionId,
            protocolVersion: protocolVersionOf(client),
            transport: this.transport,
          }),
          remote: clientCall(),
        },
        // inside the call's span context (the listener's runInContext): that is what is injected, here
        // rather than in `request()`, so that a stand-in client (zero-code) whose `callTool` runs on
        // the original client still sends it
        run: () => {
          const span = trace.getActiveSpan();
          if (span !== callerSpan) awaitRequestId(span); // the listener's own span: its request id is known later
          return callTool.apply(this, [withTraceContext(params), ...args.slice(1)] as Parameters<CallTool>);
        },
        failureOf: (result) => mcpToolFailure(toolName, result),
        report: reportedResult,
      },
      listener,
    );
  };
  Object.defineProperty(client, 'callTool', { configurable: true, writable: true, value: observedCallTool });
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
  watchUnhandledRequests(watch.lowLevel, (method, request) => recordUnhandledRequest(watch, method, request));
}

/** What `client` knows of its session now: its transport, session id and protocol version. */
export function clientSessionFacts(client: object): McpSessionFacts {
  const session = client as Client & { getNegotiatedProtocolVersion?: () => unknown };
  try {
    const transport = session.transport;
    return { sessionId: transport?.sessionId, protocolVersion: protocolVersionOf(session), transport };
  } catch {
    return {}; // a transport getter that throws: the operation is recorded without its session
  }
}

/** `connect(transport)` starts a session (session-duration.ts). */
function watchSession(client: object, start: (transport: unknown) => void): void {
  const connect = (client as { connect?: unknown }).connect;
  if (typeof connect !== 'function') return;
  Object.defineProperty(client, 'connect', {
    configurable: true,
    writable: true,
    value: function connectTimed(this: unknown, transport: unknown, ...rest: unknown[]) {
      start(transport);
      return connect.call(this, transport, ...rest);
    },
  });
}

interface ClientRequest {
  readonly toolName: string;
  readonly input: unknown;
  readonly signal: AbortSignal | undefined;
}

/**
 * What the listener is told of a `callTool`, read once; `undefined` when params have no string name
 * or reading them throws (a revoked Proxy, a getter that throws): the SDK then sees the call as the
 * app made it and reports it as it would without the adapter, a rejected promise.
 */
function readRequest(params: Parameters<CallTool>[0], args: readonly unknown[]): ClientRequest | undefined {
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

/** 2.x keeps the negotiated version on the client; 1.x only on its Streamable HTTP transport, else as seen. */
function protocolVersionOf(client: Client & { getNegotiatedProtocolVersion?: () => unknown }): unknown {
  try {
    const negotiated = client.getNegotiatedProtocolVersion?.();
    if (typeof negotiated === 'string') return negotiated;
    return (client.transport as { protocolVersion?: unknown } | undefined)?.protocolVersion ?? seenVersion(client);
  } catch {
    return undefined;
  }
}
