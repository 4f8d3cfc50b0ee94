import type { ToolCallInfo, ToolCallListener } from 'otel-tool-calls';

/** One listener method call, named after the method; `context` is what `beforeCall` returned (1, 2, ...). */
export type ListenerEvent =
  | { kind: 'beforeCall'; toolName: string; toolInput: unknown; call: ToolCallInfo }
  | { kind: 'afterCall'; context: unknown; toolName: string; result: unknown }
  | { kind: 'onError'; context: unknown; toolName: string; error: unknown }
  | { kind: 'afterCompletion'; context: unknown; toolName: string };

export interface RecordingListener extends ToolCallListener<number> {
  /** Every call the listener got, in order. */
  readonly events: ListenerEvent[];
  /** The listener itself, for `const { listener, events } = recordingListener()`. */
  readonly listener: ToolCallListener<number>;
  kinds(): string[];
}

/** A listener that records every call it gets, in order; `report` decides what onError answers. */
export function recordingListener(
  report: (error: unknown) => string | null | undefined = () => null,
): RecordingListener {
  let next = 0;
  const events: ListenerEvent[] = [];
  const recording: RecordingListener = {
    events,
    get listener() {
      return recording;
    },
    kinds: () => events.map((event) => event.kind),
    beforeCall(toolName, toolInput, call) {
      events.push({ kind: 'beforeCall', toolName, toolInput, call });
      next += 1;
      return next;
    },
    afterCall(context, toolName, _input, result) {
      events.push({ kind: 'afterCall', context, toolName, result });
    },
    onError(context, toolName, _input, error) {
      events.push({ kind: 'onError', context, toolName, error });
      return report(error);
    },
    afterCompletion(context, toolName) {
      events.push({ kind: 'afterCompletion', context, toolName });
    },
  };
  return recording;
}
