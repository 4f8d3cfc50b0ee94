/**
 * `otel-tool-calls/google-adk`: observe the tool calls of Google's Agent Development Kit
 * (`@google/adk`) through a runner plugin.
 *
 * @module
 */
export { ToolCallsPlugin, type ToolCallsPluginOptions, toolCallsPlugin } from './tool-calls-plugin.js';
