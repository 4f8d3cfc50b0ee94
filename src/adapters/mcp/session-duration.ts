import { logger } from '../../internal/logger.js';
import type { OperationTelemetry } from '../../otel/operation-telemetry.js';
import { type McpSide, recordMcpSessionDuration } from '../../otel/remote-call-metrics.js';
import { addSessionAttributes, type McpSessionFacts } from './attributes.js';

/*
 * `mcp.client.session.duration` / `mcp.server.session.duration`: a session lasts from `connect()`
 * to its transport closing (the client's or server's `close()`, the peer going away). The SDK's
 * `connect()` chains the transport's `onclose` that was there before it (both lines:
 * `_onclose?.(); this._onclose()`), so the one set here, just before `connect()`, runs first when the
 * transport closes, while the client or server still knows its transport and negotiated version.
 * One sample per transport, whatever calls `onclose` after.
 */

// read once: on Node 20, `performance` is a lazy getter of the global object, dear on a hot path
const clock = globalThis.performance;

const watchedTransports = new WeakSet<object>();

/** Starts the session of `transport`, about to be connected: its duration is recorded when it closes. */
export function startSession(
  telemetry: OperationTelemetry,
  side: McpSide,
  transport: unknown,
  factsAtClose: () => McpSessionFacts,
): void {
  if (transport === null || typeof transport !== 'object' || watchedTransports.has(transport)) return;
  if (telemetry.recording?.() === false) return;
  try {
    const target = transport as { onclose?: unknown };
    const before = target.onclose;
    const startTime = clock.now();
    let ended = false;
    target.onclose = function oncloseTimed(this: unknown, ...args: unknown[]) {
      if (!ended) {
        ended = true;
        recordSession(telemetry, side, (clock.now() - startTime) / 1000, factsAtClose, transport);
      }
      return typeof before === 'function' ? before.apply(this, args) : undefined;
    };
    watchedTransports.add(transport);
  } catch (error) {
    logger.error('could not watch the MCP session of this transport; its duration is not recorded', error);
  }
}

function recordSession(
  telemetry: OperationTelemetry,
  side: McpSide,
  seconds: number,
  factsAtClose: () => McpSessionFacts,
  transport: object,
): void {
  try {
    if (telemetry.recording?.() === false) return;
    const meter = telemetry.meter();
    if (meter === undefined) return;
    const attributes: Record<string, string | number> = {};
    addSessionAttributes(attributes, { ...factsAtClose(), transport });
    recordMcpSessionDuration(meter, side, seconds, attributes);
  } catch (error) {
    logger.error('could not record the MCP session duration', error);
  }
}
