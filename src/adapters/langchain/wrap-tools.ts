import { assertToolList, hasMethods } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { type AnyStructuredTool, observedTool } from './observed-tool.js';
import { importToolMessage } from './tool-message.js';

/** A LangChain `StructuredTool` (or one made by `tool()`), by its shape: `_call`, `invoke` and a `name`. */
const isStructuredTool = (tool: unknown) =>
  hasMethods(tool, ['_call', 'invoke']) && typeof (tool as { name?: unknown }).name === 'string';

/**
 * Reports every call of the given LangChain tools (`StructuredTool`s, including those made by
 * `tool()`) to `listener`.
 *
 * Returns, in the same order, a stand-in for each tool: it is an instance of the tool's class, and
 * every property (`name`, `description`, `schema`, `returnDirect`, fields, getters, ones the tool
 * gains later) is read on the original, every write made on it. The original tools are not modified,
 * and a call of an original is not observed. The tool's own `_call` runs with the original tool as
 * `this`: `#private` fields, helper methods and state set during a call are the original's. `invoke`
 * works as before, with plain arguments or with a `ToolCall` (then returning a `ToolMessage`); the
 * listener sees the arguments after schema validation, the `ToolCall`'s id as `toolCallId` and the
 * run config's `signal`. When the listener reports an error, the reported text is the tool's output:
 * invoked with a `ToolCall`, a `ToolMessage` with `status: 'error'` (as LangGraph's `ToolNode` makes
 * for its own errors); for a `content_and_artifact` tool, the content, with no artifact.
 *
 * @example
 * const [search, calculator] = wrapTools([searchTool, calculatorTool], new OpenTelemetryToolCallListener());
 * const message = await search.invoke({ name: 'search', args: { query: 'otel' }, id: 'call_1', type: 'tool_call' });
 */
export function wrapTools<TOOLS extends readonly AnyStructuredTool[], Context = unknown>(
  tools: TOOLS,
  listener: ToolCallListener<Context>,
): TOOLS {
  assertToolList(tools, listener, 'wrapTools', {
    of: 'LangChain StructuredTools',
    entry: { is: isStructuredTool, a: 'a LangChain StructuredTool' },
  });
  return tools.map((tool) => observedTool(tool, listener, importToolMessage)) as unknown as TOOLS;
}
