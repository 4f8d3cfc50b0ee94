/**
 * `otel-tool-calls/google-genai`: observe the CallableTools `@google/genai` calls itself (automatic
 * function calling, `mcpToTool(client)` among them). Only types are imported from the SDK: this module
 * loads nothing of it.
 *
 * @module
 */
export { wrapTool, wrapTools } from './wrap-tools.js';
