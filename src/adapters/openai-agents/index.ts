/**
 * `otel-tool-calls/openai-agents`: observe the function tools of the OpenAI Agents SDK
 * (`@openai/agents`).
 *
 * @module
 */
export { FunctionToolError } from './function-tool-error.js';
export { wrapTool, wrapTools } from './wrap-tools.js';
