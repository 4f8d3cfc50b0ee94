import { tool as functionTool, getCurrentSpan, getCurrentTrace, type Tool } from '@openai/agents';
import { assertListener, assertToolList, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { type AnyFunctionTool, isFunctionTool, observedTool } from './observed-tool.js';

// biome-ignore lint/suspicious/noExplicitAny: a tool's run context type is contravariant (invoke's parameter)
type AnyTool = Tool<any>;
/** The SDK this adapter reads the current span from: the one the app imports the tools' `tool()` from. */
const sdk = { getCurrentSpan, getCurrentTrace, tool: functionTool };

/** Any tool of the SDK (function, hosted, computer, shell...): an object with a `type`. */
const isTool = (tool: unknown) =>
  tool !== null && typeof tool === 'object' && typeof (tool as { type?: unknown }).type === 'string';

/**
 * Wraps the `FunctionTool`s of a tool list (made by `tool()`) so that `listener` sees each
 * invocation; other tools (hosted, computer, shell...) are returned as they are. Same order, same
 * types; each wrapped tool stands for its original (frozen or not): every property is read on the
 * original, and its `invoke` runs the original's with the original tool as `this`.
 *
 * @example
 * const agent = new Agent({ name: 'Assistant', tools: wrapTools([getWeather], listener) });
 */
export function wrapTools<const Tools extends readonly AnyTool[], Context = unknown>(
  tools: Tools,
  listener: ToolCallListener<Context>,
): { -readonly [K in keyof Tools]: Tools[K] } {
  assertToolList(tools, listener, 'wrapTools', { of: 'tools', entry: { is: isTool, a: 'a tool' } });
  return tools.map((tool) =>
    isFunctionTool(tool) ? observedTool(tool, listener as ToolCallListener<unknown>, sdk) : tool,
  ) as { -readonly [K in keyof Tools]: Tools[K] };
}

/** `wrapTools` for one `FunctionTool`: a stand-in for it, same type, whose invocations `listener` sees. */
export function wrapTool<T extends AnyFunctionTool, Context = unknown>(
  tool: T,
  listener: ToolCallListener<Context>,
): T {
  if (!isFunctionTool(tool)) {
    throw new TypeError(`wrapTool: \`tool\` must be a FunctionTool (made by tool()), got ${describe(tool)}`);
  }
  assertListener(listener, 'wrapTool');
  return observedTool(tool, listener as ToolCallListener<unknown>, sdk);
}
