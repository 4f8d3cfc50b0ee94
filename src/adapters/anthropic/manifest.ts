import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@anthropic-ai/sdk` from 1.15 (its tool runner's own `execute_tool` span), as the Anthropic adapter. */
export const ANTHROPIC_SDK_VERSIONS: SupportedVersions = { from: '1.15.0', belowMajor: 2 };

export const manifest: FrameworkManifest = {
  subpath: './anthropic',
  packages: [{ name: '@anthropic-ai/sdk', versions: ANTHROPIC_SDK_VERSIONS }],
  hookedFiles: [
    /\/node_modules\/@anthropic-ai\/sdk\/(lib\/tools\/ToolError|resources\/beta\/messages\/messages|index)\.mjs$/,
  ],
  docs: 'docs/frameworks/anthropic.md',
  readme: {
    framework: 'Anthropic SDK tool runner',
    api: "`wrapTools(tools, listener)`, `wrapTool(tool, listener)` for `betaZodTool`/`betaTool` tools; the SDK's own tool span joined",
    reportedFailure: 'a `tool_result` with `is_error: true`',
  },
};
