import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@ai-sdk/mcp` 1 (with ai 6) and 2 (with ai 7): `createMCPClient`. */
export const AI_SDK_MCP_VERSIONS: SupportedVersions = { from: '1.0.0', belowMajor: 3 };

export const manifest: FrameworkManifest = {
  subpath: './ai-sdk-mcp',
  packages: [{ name: '@ai-sdk/mcp', versions: AI_SDK_MCP_VERSIONS }],
  hookedFiles: [/\/node_modules\/@ai-sdk\/mcp\/dist\/index\.m?js$/],
  docs: 'docs/frameworks/ai-sdk-mcp.md',
  readme: {
    framework: "AI SDK's MCP client (`@ai-sdk/mcp`)",
    api: '`instrumentClient(client, listener)` for the client `createMCPClient()` returns',
    reportedFailure: 'an `isError` tool result',
  },
};
