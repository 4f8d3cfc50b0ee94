import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@genkit-ai/ai` from 1.42 (generate middleware with a `tool` hook), as the Genkit adapter. */
export const GENKIT_VERSIONS: SupportedVersions = { from: '1.42.0', belowMajor: 2 };

export const manifest: FrameworkManifest = {
  subpath: './genkit',
  packages: [{ name: '@genkit-ai/ai', versions: GENKIT_VERSIONS }],
  hookedFiles: [/\/node_modules\/@genkit-ai\/ai\/lib\/genkit-ai\.mjs$/],
  docs: 'docs/frameworks/genkit.md',
  readme: {
    framework: 'Genkit 1.x (\u2265 1.42)',
    api: "`toolCallsMiddleware(listener)` for `generate({ use })`; one span per call, Genkit's own",
    reportedFailure: 'the tool output',
  },
};
