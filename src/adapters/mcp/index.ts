/**
 * `otel-tool-calls/mcp`: observe the tool calls of a Model Context Protocol server or client
 * (`@modelcontextprotocol/sdk`). Only types are imported from the SDK: this module loads nothing of it.
 *
 * @module
 */
export { instrumentClient } from './instrument-client.js';
export { instrumentServer } from './instrument-server.js';
export { McpToolError } from './tool-error.js';
