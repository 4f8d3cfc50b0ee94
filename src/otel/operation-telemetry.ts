import type { Meter, Tracer } from '@opentelemetry/api';
import { composedParts, MAX_COMPOSITE_DEPTH } from '../internal/composed-parts.js';
import { keepHidden, OPERATION_TELEMETRY_KEY as OPERATION_TELEMETRY } from '../internal/protocol.js';

/*
 * What a protocol adapter (MCP) needs to record the protocol's own operations that are not tool calls
 * (`initialize`, `tools/list`, `resources/read`, ...): the tracer and meter of the
 * `OpenTelemetryToolCallListener` it was given. Those operations never go through the listener
 * itself: a user's listener must not see them as tool calls. Not public API: the listener keeps it
 * under a registered symbol (a non-enumerable own property, not on its type), and a composite listener
 * keeps its parts under another, so the adapter finds an OpenTelemetry listener inside a composite.
 * Registered symbols, not module-local values: the adapters' bundles and the root's may each hold a
 * copy of this module, and they must agree.
 */

export { keepHidden, OPERATION_TELEMETRY };

export interface OperationTelemetry {
  readonly tracer: Tracer;
  /** The listener's meter once an SDK gives a real one, else `undefined` (record nothing). */
  meter(): Meter | undefined;
  /**
   * `false` while nothing is to be recorded (zero-code's switch, the instrumentation disabled): the
   * operation then runs as if not observed. Absent: always recording.
   */
  recording?(): boolean;
}

/** The telemetry of the first OpenTelemetry listener `listener` is or composes (depth-first), if any. */
export function operationTelemetryOf(listener: unknown, depth = 0): OperationTelemetry | undefined {
  if (listener === null || typeof listener !== 'object' || depth > MAX_COMPOSITE_DEPTH) return undefined;
  try {
    const own = (listener as Record<symbol, unknown>)[OPERATION_TELEMETRY];
    if (isTelemetry(own)) return own;
    for (const part of composedParts(listener) ?? []) {
      const found = operationTelemetryOf(part, depth + 1);
      if (found !== undefined) return found;
    }
  } catch {
    // a Proxy listener whose traps throw: no operations recorded for it
  }
  return undefined;
}

function isTelemetry(value: unknown): value is OperationTelemetry {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as OperationTelemetry).tracer === 'object' &&
    typeof (value as OperationTelemetry).meter === 'function'
  );
}
