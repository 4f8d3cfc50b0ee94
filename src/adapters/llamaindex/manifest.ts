import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@llamaindex/core` 0.x from 0.6, as the LlamaIndex adapter. */
export const LLAMAINDEX_VERSIONS: SupportedVersions = { from: '0.6.0', belowMajor: 1 };

export const manifest: FrameworkManifest = {
  subpath: './llamaindex',
  packages: [{ name: '@llamaindex/core', versions: LLAMAINDEX_VERSIONS }],
  hookedFiles: [/\/node_modules\/@llamaindex\/core\/agent\/dist\/index\.js$/],
  docs: 'docs/frameworks/llamaindex.md',
  readme: {
    framework: 'LlamaIndex.TS (`@llamaindex/core` 0.6, workflow agents)',
    api: "`wrapTools(tools, listener)` for `FunctionTool`s / `tool()`; the model's call id",
    reportedFailure: 'the tool output',
  },
};
