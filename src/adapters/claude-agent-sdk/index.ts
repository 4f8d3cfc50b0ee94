/**
 * `otel-tool-calls/claude-agent-sdk`: observe every tool call of the Claude Agent SDK
 * (`@anthropic-ai/claude-agent-sdk`), built-in tools included, through its hooks. Only types are
 * imported from the SDK: this module loads nothing of it.
 *
 * @module
 */

export { type ToolCallHooks, toolCallHooks } from './tool-call-hooks.js';
export { ToolUseFailure } from './tool-use-failure.js';
