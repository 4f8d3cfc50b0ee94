/**
 * `otel-tool-calls/openai-agents`: observe the function tools of the OpenAI Agents SDK
 * (`@openai/agents`).
 */
export { FunctionToolError } from './openai-agents/function-tool-error.js';
export { wrapTool, wrapTools } from './openai-agents/wrap-tools.js';
