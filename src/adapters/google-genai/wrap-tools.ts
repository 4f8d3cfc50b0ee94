import { isObserved } from '../../internal/observed-marker.js';
import { assertListener, assertToolList, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { type CallableToolLike, isCallableTool } from './callable-tool.js';
import { observedCallableTool } from './observed-callable-tool.js';
import { observedToolList } from './observed-tool-list.js';

/**
 * Wraps the CallableTools of `config.tools` (`mcpToTool(client)`, or any `{ tool(), callTool() }`)
 * so that `listener` sees each function call `@google/genai`'s automatic function calling makes;
 * other entries (function declarations, Google Search, code execution) are returned as they are. Same
 * order, same types; each wrapped tool stands for its original. The list is taken as the request's
 * tools: a call of a function none of its CallableTools declares is observed as the model's mistake.
 *
 * @example
 * await ai.models.generateContent({ model, contents, config: { tools: wrapTools([mcpToTool(client)], listener) } });
 */
export function wrapTools<const Tools extends readonly unknown[], Context = unknown>(
  tools: Tools,
  listener: ToolCallListener<Context>,
): { -readonly [K in keyof Tools]: Tools[K] } {
  assertToolList(tools, listener, 'wrapTools', { of: 'tools' });
  return observedToolList(tools, listener as ToolCallListener<unknown>) as { -readonly [K in keyof Tools]: Tools[K] };
}

/**
 * `wrapTools` for one CallableTool: a stand-in for it, same type, whose calls `listener` sees. It
 * knows no other tool of the request, so it cannot tell a call no tool declares: `wrapTools` can.
 */
export function wrapTool<T extends CallableToolLike, Context = unknown>(
  tool: T,
  listener: ToolCallListener<Context>,
): T {
  if (!isCallableTool(tool)) {
    throw new TypeError(`wrapTool: \`tool\` must be a CallableTool ({ tool(), callTool() }), got ${describe(tool)}`);
  }
  assertListener(listener, 'wrapTool');
  if (isObserved(tool.callTool)) return tool;
  return observedCallableTool(tool, listener as ToolCallListener<unknown>);
}
