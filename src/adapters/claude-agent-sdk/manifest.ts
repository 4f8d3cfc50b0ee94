import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@anthropic-ai/claude-agent-sdk` from 0.3.333 (hooks with `tool_use_id`, the CLI's `claudecode/toolUseId`). */
export const CLAUDE_AGENT_SDK_VERSIONS: SupportedVersions = { from: '0.3.333', belowMajor: 1 };

export const manifest: FrameworkManifest = {
  subpath: './claude-agent-sdk',
  packages: [{ name: '@anthropic-ai/claude-agent-sdk', versions: CLAUDE_AGENT_SDK_VERSIONS }],
  hookedFiles: [/\/node_modules\/@anthropic-ai\/claude-agent-sdk\/sdk\.mjs$/],
  docs: 'docs/frameworks/claude-agent-sdk.md',
  readme: {
    framework: 'Claude Agent SDK',
    api: '`toolCallHooks(listener)`: the hooks for `query()`, built-in tools included',
    reportedFailure: "the hook's `additionalContext`",
  },
};
