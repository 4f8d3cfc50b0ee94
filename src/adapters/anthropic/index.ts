/**
 * `otel-tool-calls/anthropic`: observe the runnable tools of the Anthropic TypeScript SDK
 * (`@anthropic-ai/sdk`: `betaZodTool`, `betaTool`, and the tool runner that calls them).
 *
 * @module
 */
export { wrapTool, wrapTools } from './wrap-tools.js';
