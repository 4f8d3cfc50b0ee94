import type { ToolCallListener } from '../tool-call-listener.js';

/**
 * A listener's answer to the decorator, asked before each call: "this call needs nothing but my
 * `onError`". It promises that `beforeCall` would return `undefined` and do nothing else, that
 * `runInContext` would only run the tool, and that `afterCall` and `afterCompletion` would do
 * nothing. The OpenTelemetry listener answers yes while nothing is registered (it has nothing to
 * record, and only its error policy applies): the decorator then spares the call every step but
 * `onError` on a failure, so that a listener left in a library whose host has no OpenTelemetry
 * costs about one Promise reaction.
 *
 * A registered symbol, not a module-local one: the adapters' bundles and the root's may each hold a
 * copy of this module, and they must agree.
 */
export const IDLE_CALL = Symbol.for('otel-tool-calls.idle-call');

/** Whether `listener` says, for the call about to start, that only its `onError` matters. */
export function isIdleCall(listener: ToolCallListener<unknown>): boolean {
  const idle = (listener as { [IDLE_CALL]?: unknown })[IDLE_CALL];
  return typeof idle === 'function' && idle.call(listener) === true;
}
