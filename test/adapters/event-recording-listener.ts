import type { ToolCallInfo, ToolCallListener } from 'otel-tool-calls';

export type ListenerEvent =
  | { readonly kind: 'before'; readonly toolName: string; readonly input: unknown; readonly call: ToolCallInfo }
  | { readonly kind: 'after'; readonly toolName: string; readonly result: unknown }
  | { readonly kind: 'error'; readonly toolName: string; readonly error: unknown }
  | { readonly kind: 'completion'; readonly toolName: string };

/** Records every listener event; `onError` answers with `report(error)` (undefined: rethrow). */
export function recordingListener(report: (error: unknown) => string | undefined = () => undefined) {
  const events: ListenerEvent[] = [];
  const listener: ToolCallListener<string> = {
    beforeCall(toolName, input, call) {
      events.push({ kind: 'before', toolName, input, call });
      return toolName;
    },
    afterCall(_context, toolName, _input, result) {
      events.push({ kind: 'after', toolName, result });
    },
    onError(_context, toolName, _input, error) {
      events.push({ kind: 'error', toolName, error });
      return report(error);
    },
    afterCompletion(_context, toolName) {
      events.push({ kind: 'completion', toolName });
    },
  };
  return { listener, events };
}
