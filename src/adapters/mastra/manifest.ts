import type { FrameworkManifest } from '../framework-manifest.js';

export const manifest: FrameworkManifest = {
  subpath: './mastra',
  packages: [],
  hookedFiles: [],
  docs: 'docs/frameworks/mastra.md',
  readme: {
    framework: "Mastra 1.x (with `@mastra/otel-bridge`: its span is the call's one span)",
    api: '`wrapTools(tools, listener)` for a record of `createTool()` tools, as `Agent` takes them',
    reportedFailure: 'the tool output',
  },
};
