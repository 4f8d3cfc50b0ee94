/**
 * `otel-tool-calls/ai-sdk`: observe the tool calls of the Vercel AI SDK (`ai`, v6 and v7). Only
 * types are imported from the SDK: this module loads nothing of it.
 *
 * @module
 */

export { observeToolCalls } from './observe-tool-calls.js';
export { wrapTools } from './wrap-tools.js';
