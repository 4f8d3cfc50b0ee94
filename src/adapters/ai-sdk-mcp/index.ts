/**
 * `otel-tool-calls/ai-sdk-mcp`: observe the tool calls of the AI SDK's own MCP client
 * (`createMCPClient` of `@ai-sdk/mcp`) as MCP client calls, and send the trace context to the server.
 * Nothing of `@ai-sdk/mcp` is imported: the client is recognised by shape.
 *
 * @module
 */
export { instrumentClient } from './instrument-client.js';
