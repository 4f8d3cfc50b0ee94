import { assertListener, assertToolList, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { isObservedShape, observedTool } from './observed-tool.js';
import { runnableShapeOf } from './runnable-tools.js';

/**
 * Wraps the tools of `client.chat.completions.runTools({ tools })` (RunnableTools
 * `{ type: 'function', function: { function, parse?, parameters } }`, and `zodFunction()` / Standard
 * Schema tools) so that `listener` sees each call the runner makes; other entries are returned as they
 * are. Same order, same types; each wrapped tool stands for its original (every property is read on
 * the original, whose own object is never changed).
 *
 * @example
 * const runner = client.chat.completions.runTools({ model, messages, tools: wrapTools(tools, listener) });
 */
export function wrapTools<const Tools extends readonly unknown[], Context = unknown>(
  tools: Tools,
  listener: ToolCallListener<Context>,
): { -readonly [K in keyof Tools]: Tools[K] } {
  assertToolList(tools, listener, 'wrapTools', { of: 'tools' });
  return tools.map((tool) => {
    const shape = runnableShapeOf(tool);
    if (shape === undefined || isObservedShape(shape)) return tool;
    return observedTool(tool as object, shape, listener as ToolCallListener<unknown>);
  }) as { -readonly [K in keyof Tools]: Tools[K] };
}

/** `wrapTools` for one tool: a stand-in for it, same type, whose calls `listener` sees. */
export function wrapTool<T extends object, Context = unknown>(tool: T, listener: ToolCallListener<Context>): T {
  const shape = runnableShapeOf(tool);
  if (shape === undefined) {
    throw new TypeError(
      `wrapTool: \`tool\` must be a runnable tool ({ type: 'function', function: { function } } or zodFunction()), got ${describe(tool)}`,
    );
  }
  assertListener(listener, 'wrapTool');
  if (isObservedShape(shape)) return tool;
  return observedTool(tool, shape, listener as ToolCallListener<unknown>);
}
