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
  return {
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
  };
}
