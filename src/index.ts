export type { ToolCallInfo, ToolCallListener } from './tool-call-listener.js';
export { ToolCallListeners } from './tool-call-listeners.js';
export type { ToolCallback, ToolContext, ToolDefinition, ToolMetadata } from './tool-callback.js';
export { functionToolCallback } from './tool-callback.js';
