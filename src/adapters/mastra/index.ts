/**
 * `otel-tool-calls/mastra`: observe the tool calls of Mastra agents (`@mastra/core`). Only types
 * are imported from Mastra: this module loads nothing of it.
 *
 * @module
 */
export { wrapTools } from './wrap-tools.js';
