import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** ai 6 and 7: `generateText`, `streamText`, and `ToolLoopAgent` (`Experimental_Agent` is the same class). */
export const AI_SDK_VERSIONS: SupportedVersions = { from: '6.0.0', belowMajor: 8 };

export const manifest: FrameworkManifest = {
  subpath: './ai-sdk',
  packages: [{ name: 'ai', versions: AI_SDK_VERSIONS }],
  hookedFiles: [/\/node_modules\/ai\/dist\/index\.m?js$/],
  docs: 'docs/frameworks/ai-sdk.md',
  readme: {
    framework: 'Vercel AI SDK 6 and 7',
    api: '`wrapTools(tools, listener)` for a record of `tool()`s, streaming tools included; `observeToolCalls(options, listener)` for the `generateText`/`streamText`/agent options, to see the calls the SDK rejects too',
    reportedFailure: 'the tool output',
  },
};
