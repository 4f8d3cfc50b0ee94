import { assertListener, assertToolList, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { agentToolShapeOf } from './agent-tool.js';
import { isObservedShape, observedTool } from './observed-tool.js';

/**
 * Wraps pi `AgentTool`s (`@mariozechner/pi-agent-core`) so that `listener` sees each call the loop
 * runs: one `execute_tool` span per call, with the model's call id. Same order, same types; each
 * wrapped tool stands for its original (every property is read on the original, whose own object is
 * never changed); other entries are returned as they are. The calls the loop answers itself (a tool it
 * does not have, arguments the schema refuses) never reach a tool, and a tool knows no conversation:
 * `instrumentAgent` (or zero-code) sees those too.
 *
 * @example
 * const stream = agentLoop(prompts, { systemPrompt, messages: [], tools: wrapTools(tools, listener) }, config);
 */
export function wrapTools<const Tools extends readonly unknown[], Context = unknown>(
  tools: Tools,
  listener: ToolCallListener<Context>,
): { -readonly [K in keyof Tools]: Tools[K] } {
  assertToolList(tools, listener, 'wrapTools', { of: 'AgentTools' });
  return tools.map((tool) => {
    const shape = agentToolShapeOf(tool);
    if (shape === undefined || isObservedShape(shape)) return tool;
    return observedTool(tool as object, shape, listener as ToolCallListener<unknown>);
  }) as { -readonly [K in keyof Tools]: Tools[K] };
}

/** `wrapTools` for one tool: a stand-in for it, same type, whose calls `listener` sees. */
export function wrapTool<T extends object, Context = unknown>(tool: T, listener: ToolCallListener<Context>): T {
  const shape = agentToolShapeOf(tool);
  if (shape === undefined) {
    throw new TypeError(`wrapTool: \`tool\` must be an AgentTool ({ name, execute }), got ${describe(tool)}`);
  }
  assertListener(listener, 'wrapTool');
  if (isObservedShape(shape)) return tool;
  return observedTool(tool, shape, listener as ToolCallListener<unknown>);
}
