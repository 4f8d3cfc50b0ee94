import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@openrouter/agent` (beta, 0.x), where `callModel` lives now: its ModelResult, as the adapter. */
export const OPENROUTER_AGENT_VERSIONS: SupportedVersions = { from: '0.8.0', belowMajor: 1 };

/** `@openrouter/sdk` 1.x, whose `callModel` (deprecated for `@openrouter/agent`'s) runs tools too. */
export const OPENROUTER_SDK_VERSIONS: SupportedVersions = { from: '1.3.0', belowMajor: 2 };

export const manifest: FrameworkManifest = {
  subpath: './openrouter',
  packages: [
    { name: '@openrouter/agent', versions: OPENROUTER_AGENT_VERSIONS },
    { name: '@openrouter/sdk', versions: OPENROUTER_SDK_VERSIONS },
  ],
  hookedFiles: [/\/node_modules\/@openrouter\/(agent|sdk)\/esm\/lib\/model-result\.js$/],
  docs: 'docs/frameworks/openrouter.md',
  readme: {
    framework: 'OpenRouter `callModel` (`@openrouter/agent`, `@openrouter/sdk`)',
    api: '`instrumentModelResult(result, listener)` for the ModelResult `callModel` returns',
    reportedFailure: 'the tool output `{"error": text}`',
  },
};
