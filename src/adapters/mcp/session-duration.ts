import { logger } from '../../internal/logger.js';
import { errorTypeOf } from '../../otel/error-type.js';
import { keepOpenSession } from '../../otel/open-sessions.js';
import type { OperationTelemetry } from '../../otel/operation-telemetry.js';
import { type McpSide, recordMcpSessionDuration } from '../../otel/remote-call-metrics.js';
import { ATTR_ERROR_TYPE } from '../../otel/stable-semconv.js';
import { addSessionAttributes, type McpSessionFacts } from './attributes.js';
import { hasRequestsInFlight, replaceMethod } from './protocol-seam.js';

/*
 * `mcp.client.session.duration` / `mcp.server.session.duration`: a session lasts from `connect()`
 * to its transport closing (the client's or server's `close()`, the peer going away). The SDK's
 * `connect()` chains the transport's `onclose` that was there before it (both lines:
 * `_onclose?.(); this._onclose()`), so the one set here, just before `connect()`, runs first when the
 * transport closes, while the client or server still knows its transport and negotiated version.
 * One sample per transport, whatever calls `onclose` after.
 *
 * A session that ends in error has `error.type` (the conventions: if and only if it ends with an
 * error). Ended by this side (the client's or server's own `close()`, told by `noteClosing`), it
 * never has. Ended otherwise (the peer gone, the transport failed): `CONNECTION_CLOSED` when requests
 * were still in flight (sent and unanswered, or received and not answered yet: the SDK then fails them
 * with its connection-closed error, the `error.type` of their own spans), else the type of the last
 * error the transport reported (its `onerror`, chained by `connect()` as `onclose` is), else none:
 * the peer closed a session with nothing pending, an ordinary end.
 *
 * A session still open when the process's telemetry ends (register's flush at exit,
 * `startToolCallTelemetry().shutdown()`) is ended then, and judged the same way, as if its transport
 * closed at that moment: a 1.x stdio server whose client left (its transport fires no close at the
 * end of stdin) has nothing in flight, an ordinary end; one ended under requests still in flight is
 * `CONNECTION_CLOSED`.
 */

// read once: on Node 20, `performance` is a lazy getter of the global object, dear on a hot path
const clock = globalThis.performance;

const watchedTransports = new WeakSet<object>();
/** The clients and servers whose own `close()` was called since their session started. */
const closing = new WeakSet<object>();

/** The `error.type` of a session whose connection closed with requests in flight (2.x `SdkErrorCode`'s name). */
const CONNECTION_CLOSED = 'CONNECTION_CLOSED';

/** `protocol` (a client or a low-level server) is closing its session itself: an ordinary end. */
export function noteClosing(protocol: unknown): void {
  if (protocol !== null && typeof protocol === 'object') closing.add(protocol);
}

/** `protocol.close()` (replaced on the instance) notes that this side ends its session itself. */
export function watchOwnClose(protocol: unknown): void {
  if (protocol === null || typeof protocol !== 'object') return;
  try {
    replaceMethod(
      protocol,
      'close',
      (close) =>
        function closeNoted(this: unknown, ...args: unknown[]) {
          noteClosing(protocol);
          return close.apply(this, args);
        },
    );
  } catch {
    // a close that cannot be replaced: its session's end is judged by what is in flight
  }
}

/** Starts the session of `transport`, about to be connected: its duration is recorded when it closes. */
export function startSession(
  telemetry: OperationTelemetry,
  side: McpSide,
  transport: unknown,
  factsAtClose: () => McpSessionFacts,
  protocol?: unknown,
): void {
  if (transport === null || typeof transport !== 'object' || watchedTransports.has(transport)) return;
  if (telemetry.recording?.() === false) return;
  try {
    if (protocol !== null && typeof protocol === 'object') closing.delete(protocol);
    const target = transport as { onclose?: unknown; onerror?: unknown };
    const before = target.onclose;
    const onerrorBefore = target.onerror;
    let transportError: unknown;
    let failed = false;
    target.onerror = function onerrorNoted(this: unknown, error: unknown, ...args: unknown[]) {
      failed = true;
      transportError = error;
      return typeof onerrorBefore === 'function' ? onerrorBefore.call(this, error, ...args) : undefined;
    };
    const startTime = clock.now();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      open.closed();
      const errorType = endedInError(protocol, failed, transportError);
      recordSession(telemetry, side, (clock.now() - startTime) / 1000, factsAtClose, transport, errorType);
    };
    // still open when the process's telemetry ends: ended then, as if its transport closed (open-sessions.ts)
    const open = keepOpenSession(end);
    target.onclose = function oncloseTimed(this: unknown, ...args: unknown[]) {
      end();
      return typeof before === 'function' ? before.apply(this, args) : undefined;
    };
    watchedTransports.add(transport);
  } catch (error) {
    logger.error('could not watch the MCP session of this transport; its duration is not recorded', error);
  }
}

/** The session's `error.type` when it closes now, or `undefined` for an ordinary end (see above). */
function endedInError(protocol: unknown, failed: boolean, transportError: unknown): string | undefined {
  if (protocol === null || typeof protocol !== 'object' || closing.has(protocol)) return undefined;
  // a protocol whose fields cannot be read has none in flight: what the transport said
  if (hasRequestsInFlight(protocol)) return CONNECTION_CLOSED;
  return failed ? errorTypeOf(transportError) : undefined;
}

function recordSession(
  telemetry: OperationTelemetry,
  side: McpSide,
  seconds: number,
  factsAtClose: () => McpSessionFacts,
  transport: object,
  errorType: string | undefined,
): void {
  try {
    if (telemetry.recording?.() === false) return;
    const meter = telemetry.meter();
    if (meter === undefined) return;
    const attributes: Record<string, string | number> = {};
    addSessionAttributes(attributes, { ...factsAtClose(), transport });
    if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
    recordMcpSessionDuration(meter, side, seconds, attributes);
  } catch (error) {
    logger.error('could not record the MCP session duration', error);
  }
}
