import { COMPOSED_LISTENERS_KEY as COMPOSED_LISTENERS, keepHidden } from './internal/protocol.js';
import type { ToolCallDecision, ToolCallInfo, ToolCallListener } from './tool-call-listener.js';

/**
 * One listener that fans out to several, behaving like nested wrapping with the first listener
 * outermost: `beforeCall` runs in the given order; `afterCall`, `onError` and `afterCompletion`
 * run in reverse order; `runInContext` nests (the first listener's context is the outermost).
 * Each listener gets back its own context.
 *
 * - `onError` calls every listener and returns the first non-null string in that (reverse) order.
 * - A listener method that throws does not stop the others: every listener is still called, then
 *   the first error is rethrown (so an `afterCall` error reaches `onError` of all of them).
 * - `onDecision` runs in the given order.
 * - A `beforeCall` that throws: the listeners already started get `onError` with that error (their
 *   answers are ignored: the tool never runs) and `afterCompletion`, then the error propagates.
 */
export function compositeListener(listeners: readonly ToolCallListener<unknown>[]): ToolCallListener<unknown[]> {
  const all = [...listeners];
  // indexes, not listeners, so that the same listener given twice keeps two contexts
  const order = all.map((_, index) => index);
  const reversed = [...order].reverse();

  const composite: ToolCallListener<unknown[]> = {
    beforeCall(toolName: string, toolInput: unknown, call: ToolCallInfo): unknown[] {
      const contexts: unknown[] = [];
      for (const listener of all) {
        try {
          contexts.push(listener.beforeCall?.(toolName, toolInput, call));
        } catch (error) {
          const started = reversed.slice(all.length - contexts.length);
          forEach(all, started, (l, i) => l.onError?.(contexts[i], toolName, toolInput, error, call));
          forEach(all, started, (l, i) => l.afterCompletion?.(contexts[i], toolName, toolInput, call));
          throw error;
        }
      }
      return contexts;
    },
    afterCall(contexts, toolName, toolInput, result, call) {
      forEach(all, reversed, (l, i) => l.afterCall?.(contexts[i], toolName, toolInput, result, call));
    },
    onError(contexts, toolName, toolInput, error, call) {
      let reported: string | undefined;
      forEach(all, reversed, (l, i) => {
        const answer = l.onError?.(contexts[i], toolName, toolInput, error, call);
        if (reported === undefined && typeof answer === 'string') reported = answer;
      });
      return reported ?? null;
    },
    afterCompletion(contexts, toolName, toolInput, call) {
      forEach(all, reversed, (l, i) => l.afterCompletion?.(contexts[i], toolName, toolInput, call));
    },
    runInContext<R>(contexts: unknown[], run: () => R): R {
      let body = run;
      for (const index of reversed) {
        const listener = all[index] as ToolCallListener<unknown>;
        if (!listener.runInContext) continue;
        const inner = body;
        body = () => (listener.runInContext as NonNullable<typeof listener.runInContext>)(contexts[index], inner);
      }
      return body();
    },
    onDecision(decision: ToolCallDecision): void {
      forEach(all, order, (l) => l.onDecision?.(decision));
    },
  };
  // so that an adapter finds an OpenTelemetry listener among the parts (otel/operation-telemetry.ts)
  keepHidden(composite, COMPOSED_LISTENERS, Object.freeze(all));
  return composite;
}

/** Calls `fn` for each listener in `order` even when one throws, then rethrows the first error. */
function forEach(
  listeners: readonly ToolCallListener<unknown>[],
  order: readonly number[],
  fn: (listener: ToolCallListener<unknown>, index: number) => void,
) {
  let failed = false;
  let firstError: unknown;
  for (const index of order) {
    try {
      fn(listeners[index] as ToolCallListener<unknown>, index);
    } catch (error) {
      if (!failed) {
        failed = true;
        firstError = error;
      }
    }
  }
  if (failed) throw firstError;
}
