/**
 * `otel-tool-calls/llamaindex`: observe the tool calls of LlamaIndex.TS (`FunctionTool`s made by
 * `tool()` / `FunctionTool.from`, and any `BaseTool` with a `call`), as its agents make them
 * (`@llamaindex/workflow`'s `agent()` / `multiAgent()`, and `@llamaindex/core`'s `callTool`).
 *
 * @module
 */
export { wrapTools } from './wrap-tools.js';
