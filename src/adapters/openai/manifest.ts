import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `openai` 7 (its chat completions tool runner, `runTools`), as the openai adapter. */
export const OPENAI_VERSIONS: SupportedVersions = { from: '7.0.0', belowMajor: 8 };

export const manifest: FrameworkManifest = {
  subpath: './openai',
  packages: [{ name: 'openai', versions: OPENAI_VERSIONS }],
  hookedFiles: [/\/node_modules\/openai\/resources\/chat\/completions\/completions\.mjs$/],
  docs: 'docs/frameworks/openai.md',
  readme: {
    framework: 'OpenAI SDK tool runner (`runTools`)',
    api: '`wrapTools(tools, listener)`, `wrapTool(tool, listener)` for RunnableTools and `zodFunction()` tools',
    reportedFailure: 'the tool message',
  },
};
