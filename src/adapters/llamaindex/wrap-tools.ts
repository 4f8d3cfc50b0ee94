import { assertToolList } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { type AnyTool, isCallableTool, observedTool } from './observed-tool.js';
import { listenForToolCallIds, takeToolCallId } from './tool-call-ids.js';

/**
 * Reports every call of the given LlamaIndex.TS tools (`FunctionTool`s made by `tool()` or
 * `FunctionTool.from`, or any `BaseTool` with a `call`) to `listener`.
 *
 * Returns, in the same order and with the same types, a stand-in for each tool: every property
 * (`metadata`, a getter over the tool's `#private` field, `bind`, fields, ones the tool gains later)
 * is read on the original, and its `call` runs the original's with the original tool as `this`. The
 * original tools are not modified. The listener sees the model's call id (`toolCallId`) of calls made
 * by LlamaIndex's agents (`agent()`, `multiAgent()` of `@llamaindex/workflow`, anything that runs
 * tools through `callTool`). When the listener reports an error, the reported text is the tool's
 * output, which the agent hands the model as the tool result.
 *
 * The wrapped `call` returns what the original's returns: a value for a synchronous tool, a Promise
 * for an asynchronous one.
 *
 * @example
 * const weather = agent({ llm, tools: wrapTools([getWeather], new OpenTelemetryToolCallListener()) });
 */
export function wrapTools<const Tools extends readonly AnyTool[], Context = unknown>(
  tools: Tools,
  listener: ToolCallListener<Context>,
): { -readonly [K in keyof Tools]: Tools[K] } {
  assertToolList(tools, listener, 'wrapTools', {
    of: 'LlamaIndex tools',
    entry: { is: isCallableTool, a: 'a LlamaIndex tool (a `call` function and `metadata.name`)' },
  });
  listenForToolCallIds();
  return tools.map((tool) => observedTool(tool, listener as ToolCallListener<unknown>, announcedCallId)) as {
    -readonly [K in keyof Tools]: Tools[K];
  };
}

/** The id `callTool` announced for this input; the manager in effect now is observed for later calls. */
function announcedCallId(input: unknown): string | undefined {
  listenForToolCallIds();
  return takeToolCallId(input);
}
