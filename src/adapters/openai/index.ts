/**
 * `otel-tool-calls/openai`: observe the tool calls of the `openai` SDK's tool runner,
 * `client.chat.completions.runTools({ tools })`. Only types are imported from the SDK: this module
 * loads nothing of it.
 *
 * @module
 */
export { wrapTool, wrapTools } from './wrap-tools.js';
