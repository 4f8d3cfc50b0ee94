import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@langchain/core` 1.x, as the LangChain adapter. */
export const LANGCHAIN_VERSIONS: SupportedVersions = { from: '1.0.0', belowMajor: 2 };

export const manifest: FrameworkManifest = {
  subpath: './langchain',
  packages: [{ name: '@langchain/core', versions: LANGCHAIN_VERSIONS }],
  hookedFiles: [
    /\/node_modules\/@langchain\/core\/dist\/tools\/index\.js$/,
    // its ToolMessage, for a reported failure
    /\/node_modules\/@langchain\/core\/dist\/messages\/tool\.js$/,
  ],
  docs: 'docs/frameworks/langchain.md',
  readme: {
    framework: 'LangChain.js',
    api: '`wrapTools(tools, listener)` for `StructuredTool`s',
    reportedFailure: "the tool output; a `ToolMessage` with `status: 'error'`",
  },
};
