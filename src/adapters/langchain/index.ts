/**
 * `otel-tool-calls/langchain`: observe the tool calls of LangChain.js (`@langchain/core` tools).
 * Nothing of LangChain is loaded when this module is imported.
 *
 * @module
 */
export { wrapTools } from './wrap-tools.js';
