import { logger } from '../../internal/logger.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { modelResultReplacements } from './model-result-seam.js';

/**
 * Observes the tool calls `callModel` runs for this ModelResult (`@openrouter/agent`'s `callModel`,
 * or `@openrouter/sdk` 1.x's, as a function or as `client.callModel`): one span per call the SDK
 * runs, with the model's call id, and the calls it answers without running a tool (an unknown name,
 * arguments that are not JSON or that the tool's schema refuses) as the model's mistakes. Call it on
 * the ModelResult as `callModel` returns it, before it is read (`getText()`, a stream): the SDK runs
 * the tools when it is first read. Returns the same ModelResult; its methods that run the tools are
 * replaced on it (non-enumerable), nothing else of it changes. The app's tools are not changed.
 *
 * @example
 * const result = instrumentModelResult(client.callModel({ model, input, tools }), listener);
 * const text = await result.getText();
 */
export function instrumentModelResult<Result extends object, Context = unknown>(
  result: Result,
  listener: ToolCallListener<Context>,
): Result {
  if (!isModelResult(result)) {
    throw new TypeError(
      `instrumentModelResult: \`result\` must be the ModelResult callModel returns, got ${describe(result)}`,
    );
  }
  assertListener(listener, 'instrumentModelResult');
  if (isObserved(result)) {
    logger.warn('instrumentModelResult: this ModelResult is observed already; its first listener stays');
    return result;
  }
  const listenerOf = () => listener as ToolCallListener<unknown>;
  for (const [name, replace] of modelResultReplacements(result)) {
    const original = (result as Record<string, unknown>)[name] as (this: object, ...args: unknown[]) => unknown;
    Object.defineProperty(result, name, {
      value: replace(original, listenerOf),
      configurable: true,
      writable: true,
      enumerable: false,
    });
  }
  return markObserved(result);
}

/** A ModelResult of either package, by its shape: it reads text and runs rounds of tool calls. */
function isModelResult(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const methods = value as Record<string, unknown>;
  return typeof methods.getText === 'function' && typeof methods.executeToolRound === 'function';
}
