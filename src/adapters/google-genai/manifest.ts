import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@google/genai` 2 and 3 (3 needs Node 22): automatic function calling with CallableTools, as the adapter. */
export const GOOGLE_GENAI_VERSIONS: SupportedVersions = { from: '2.0.0', belowMajor: 4 };

export const manifest: FrameworkManifest = {
  subpath: './google-genai',
  packages: [{ name: '@google/genai', versions: GOOGLE_GENAI_VERSIONS }],
  hookedFiles: [/\/node_modules\/@google\/genai\/dist\/node\/index\.mjs$/],
  docs: 'docs/frameworks/google-genai.md',
  readme: {
    framework: 'Google Gen AI SDK automatic function calling',
    api: '`wrapTools(tools, listener)`, `wrapTool(tool, listener)` for CallableTools (`mcpToTool(client)` among them)',
    reportedFailure: 'a `functionResponse` with `response.error`',
  },
};
