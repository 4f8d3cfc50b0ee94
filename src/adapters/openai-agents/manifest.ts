import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@openai/agents` (and `@openai/agents-core`, its classes) from 0.20, as the OpenAI Agents adapter. */
export const OPENAI_AGENTS_VERSIONS: SupportedVersions = { from: '0.20.0', belowMajor: 1 };

export const manifest: FrameworkManifest = {
  subpath: './openai-agents',
  packages: [
    { name: '@openai/agents', versions: OPENAI_AGENTS_VERSIONS },
    { name: '@openai/agents-core', versions: OPENAI_AGENTS_VERSIONS },
  ],
  hookedFiles: [/\/node_modules\/@openai\/agents(-core)?\/dist\/index\.m?js$/],
  docs: 'docs/frameworks/openai-agents.md',
  readme: {
    framework: 'OpenAI Agents SDK',
    api: '`wrapTools(tools, listener)`, `wrapTool(tool, listener)` for `FunctionTool`s',
    reportedFailure: 'the tool output',
  },
};
