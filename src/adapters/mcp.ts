/**
 * `otel-tool-calls/mcp`: observe the tool calls of a Model Context Protocol server or client
 * (`@modelcontextprotocol/sdk`). Only types are imported from the SDK: this module loads nothing of it.
 */
export { instrumentClient } from './mcp/instrument-client.js';
export { instrumentServer } from './mcp/instrument-server.js';
export { McpToolError } from './mcp/tool-error.js';
