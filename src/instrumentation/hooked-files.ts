/**
 * The ESM files `ToolCallsInstrumentation` patches, as import-in-the-middle's `include` option:
 * `otel-tool-calls/register` hooks these and no other module.
 */
export const ESM_HOOKED_FILES: RegExp[] = [
  /\/node_modules\/ai\/dist\/index\.m?js$/,
  /\/node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/(server\/mcp|client\/index)\.js$/,
  /\/node_modules\/@langchain\/core\/dist\/tools\/index\.js$/,
  // its ToolMessage, for a reported failure (langchain.ts)
  /\/node_modules\/@langchain\/core\/dist\/messages\/tool\.js$/,
  /\/node_modules\/@openai\/agents(-core)?\/dist\/index\.m?js$/,
  /\/node_modules\/@modelcontextprotocol\/(server|client)\/dist\/index\.mjs$/,
  /\/node_modules\/@anthropic-ai\/sdk\/(lib\/tools\/ToolError|resources\/beta\/messages\/messages|index)\.mjs$/,
  /\/node_modules\/@anthropic-ai\/claude-agent-sdk\/sdk\.mjs$/,
  /\/node_modules\/@llamaindex\/core\/agent\/dist\/index\.js$/,
  /\/node_modules\/@genkit-ai\/ai\/lib\/genkit-ai\.mjs$/,
];
