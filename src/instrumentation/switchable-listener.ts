import { trace } from '@opentelemetry/api';
import {
  keepHidden,
  OPERATION_TELEMETRY,
  type OperationTelemetry,
  operationTelemetryOf,
} from '../otel/operation-telemetry.js';
import type { ToolCallInfo, ToolCallListener } from '../tool-call-listener.js';

interface Switched {
  readonly listener: ToolCallListener<unknown> | undefined;
  readonly context: unknown;
}

/**
 * A listener that observes through `current()` while `isOn()`, and does nothing otherwise, decided
 * once per call at `beforeCall` (a call that started observed ends observed). For what the
 * instrumentation cannot unpatch: an MCP server instance it instrumented keeps its hooks after
 * `disable()`, and they then do nothing.
 */
export function switchableListener(
  isOn: () => boolean,
  current: () => ToolCallListener<unknown>,
): ToolCallListener<Switched> {
  const switched: ToolCallListener<Switched> = {
    beforeCall(toolName: string, toolInput: unknown, call: ToolCallInfo): Switched {
      if (!isOn()) return { listener: undefined, context: undefined };
      const listener = current();
      return { listener, context: listener.beforeCall?.(toolName, toolInput, call) };
    },
    afterCall({ listener, context }, toolName, toolInput, result, call) {
      listener?.afterCall?.(context, toolName, toolInput, result, call);
    },
    onError({ listener, context }, toolName, toolInput, error, call) {
      return listener?.onError ? listener.onError(context, toolName, toolInput, error, call) : null;
    },
    afterCompletion({ listener, context }, toolName, toolInput, call) {
      listener?.afterCompletion?.(context, toolName, toolInput, call);
    },
    runInContext<R>({ listener, context }: Switched, run: () => R): R {
      return listener?.runInContext ? listener.runInContext(context, run) : run();
    },
    // a decision is outside any call: told to the listener of the moment, while on
    onDecision(decision) {
      if (isOn()) current().onDecision?.(decision);
    },
  };
  keepHidden(switched, OPERATION_TELEMETRY, switchableTelemetry(isOn, current));
  return switched;
}

/** The operation telemetry of `current()` while `isOn()`, read at each operation (the listener a config change makes). */
function switchableTelemetry(isOn: () => boolean, current: () => ToolCallListener<unknown>): OperationTelemetry {
  const telemetryNow = () => operationTelemetryOf(current());
  return {
    get tracer() {
      return telemetryNow()?.tracer ?? trace.getTracer('otel-tool-calls');
    },
    meter: () => telemetryNow()?.meter(),
    recording: () => isOn() && telemetryNow() !== undefined,
  };
}
