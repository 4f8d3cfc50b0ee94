import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@modelcontextprotocol/sdk` 1.x, from the version the MCP adapter supports. */
export const MCP_SDK_VERSIONS: SupportedVersions = { from: '1.20.0', belowMajor: 2 };

/** The 2.x split packages (`McpServer` in `@modelcontextprotocol/server`, `Client` in `-/client`), as the MCP adapter. */
export const MCP_SPLIT_VERSIONS: SupportedVersions = { from: '2.4.0', belowMajor: 3 };

export const manifest: FrameworkManifest = {
  subpath: './mcp',
  packages: [
    { name: '@modelcontextprotocol/sdk', versions: MCP_SDK_VERSIONS },
    { name: '@modelcontextprotocol/server', versions: MCP_SPLIT_VERSIONS },
    { name: '@modelcontextprotocol/client', versions: MCP_SPLIT_VERSIONS },
  ],
  hookedFiles: [
    /\/node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/(server\/mcp|server\/index|client\/index)\.js$/,
    /\/node_modules\/@modelcontextprotocol\/(server|client)\/dist\/index\.mjs$/,
  ],
  docs: 'docs/frameworks/mcp.md',
  readme: {
    framework: 'MCP TypeScript SDK 1.x and 2.x (one trace across client and server)',
    api: '`instrumentServer(server, listener)`, `instrumentClient(client, listener)`',
    reportedFailure: "`{ content: [{ type: 'text', text }], isError: true }`",
  },
};
