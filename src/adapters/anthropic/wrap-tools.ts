import { ToolError } from '@anthropic-ai/sdk/lib/tools/ToolError';
import { assertListener, assertToolList, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { type AnyRunnableTool, isRunnableTool, observedTool } from './observed-tool.js';

const toolError = (text: string) => new ToolError(text);

/**
 * Wraps the runnable tools of a tool list (`betaZodTool()`, `betaTool()`, or any object with `run`
 * and `parse`) so that `listener` sees each call the tool runner makes; other entries (API tool
 * definitions, server tools, toolsets) are returned as they are. Same order, same types; each
 * wrapped tool stands for its original: every property is read on the original, and its `run`
 * runs the original's with the original tool as `this`.
 *
 * @example
 * const runner = client.beta.messages.toolRunner({ model, max_tokens, messages, tools: wrapTools([getWeather], listener) });
 */
export function wrapTools<const Tools extends readonly unknown[], Context = unknown>(
  tools: Tools,
  listener: ToolCallListener<Context>,
): { -readonly [K in keyof Tools]: Tools[K] } {
  assertToolList(tools, listener, 'wrapTools', { of: 'tools' });
  return tools.map((tool) =>
    isRunnableTool(tool) ? observedTool(tool, listener as ToolCallListener<unknown>, toolError) : tool,
  ) as { -readonly [K in keyof Tools]: Tools[K] };
}

/** `wrapTools` for one runnable tool: a stand-in for it, same type, whose calls `listener` sees. */
export function wrapTool<T extends AnyRunnableTool, Context = unknown>(
  tool: T,
  listener: ToolCallListener<Context>,
): T {
  if (!isRunnableTool(tool)) {
    throw new TypeError(
      `wrapTool: \`tool\` must be a runnable tool (betaZodTool(), betaTool()), got ${describe(tool)}`,
    );
  }
  assertListener(listener, 'wrapTool');
  return observedTool(tool, listener as ToolCallListener<unknown>, toolError);
}
