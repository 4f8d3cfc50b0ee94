import type { FrameworkManifest } from '../framework-manifest.js';

export const manifest: FrameworkManifest = {
  subpath: './google-genai',
  // no zero-code patch yet: wrapTools only
  packages: [],
  hookedFiles: [],
  docs: 'docs/frameworks/google-genai.md',
  readme: {
    framework: 'Google Gen AI SDK automatic function calling',
    api: '`wrapTools(tools, listener)`, `wrapTool(tool, listener)` for CallableTools (`mcpToTool(client)` among them)',
    reportedFailure: 'a `functionResponse` with `response.error`',
  },
};
