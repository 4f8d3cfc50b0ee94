import type { FrameworkManifest } from '../framework-manifest.js';
// the ranges stay in zero-code.ts while the MCP seams are reworked
import { MCP_SDK_VERSIONS, MCP_SPLIT_VERSIONS } from './zero-code.js';

export const manifest: FrameworkManifest = {
  subpath: './mcp',
  packages: [
    { name: '@modelcontextprotocol/sdk', versions: MCP_SDK_VERSIONS },
    { name: '@modelcontextprotocol/server', versions: MCP_SPLIT_VERSIONS },
    { name: '@modelcontextprotocol/client', versions: MCP_SPLIT_VERSIONS },
  ],
  hookedFiles: [
    /\/node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/(server\/mcp|client\/index)\.js$/,
    /\/node_modules\/@modelcontextprotocol\/(server|client)\/dist\/index\.mjs$/,
  ],
  docs: 'docs/frameworks/mcp.md',
  readme: {
    framework: 'MCP TypeScript SDK 1.x and 2.x (one trace across client and server)',
    api: '`instrumentServer(server, listener)`, `instrumentClient(client, listener)`',
    reportedFailure: "`{ content: [{ type: 'text', text }], isError: true }`",
  },
};
