import type { FrameworkManifest } from '../framework-manifest.js';

export const manifest: FrameworkManifest = {
  subpath: './ai-sdk-mcp',
  // no zero-code patch yet: instrumentClient only
  packages: [],
  hookedFiles: [],
  docs: 'docs/frameworks/ai-sdk-mcp.md',
  readme: {
    framework: "AI SDK's MCP client (`@ai-sdk/mcp`)",
    api: '`instrumentClient(client, listener)` for the client `createMCPClient()` returns',
    reportedFailure: 'an `isError` tool result',
  },
};
