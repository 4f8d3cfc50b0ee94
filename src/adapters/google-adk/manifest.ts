import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@google/adk` 2.x, as the Google ADK adapter. */
export const GOOGLE_ADK_VERSIONS: SupportedVersions = { from: '2.0.0', belowMajor: 3 };

export const manifest: FrameworkManifest = {
  subpath: './google-adk',
  packages: [{ name: '@google/adk', versions: GOOGLE_ADK_VERSIONS }],
  hookedFiles: [],
  docs: 'docs/frameworks/google-adk.md',
  readme: {
    framework: "Google ADK 2.x (ADK's own `execute_tool` span is the call's one span)",
    api: "`toolCallsPlugin(listener)`: a plugin for the runner's `plugins`",
    reportedFailure: "`{ error: text }`, the call's error response",
  },
};
