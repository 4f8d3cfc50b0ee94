import type { FrameworkManifest } from '../framework-manifest.js';

export const manifest: FrameworkManifest = {
  subpath: './openai',
  // no zero-code patch yet: wrapTools only
  packages: [],
  hookedFiles: [],
  docs: 'docs/frameworks/openai.md',
  readme: {
    framework: 'OpenAI SDK tool runner (`runTools`)',
    api: '`wrapTools(tools, listener)`, `wrapTool(tool, listener)` for RunnableTools and `zodFunction()` tools',
    reportedFailure: 'the tool message',
  },
};
