import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@mariozechner/pi-agent-core` from 0.73 (`Agent`, its loop functions, `beforeToolCall`), as the pi-agent-core adapter. */
export const PI_AGENT_CORE_VERSIONS: SupportedVersions = { from: '0.73.0', belowMajor: 1 };

export const manifest: FrameworkManifest = {
  subpath: './pi-agent-core',
  packages: [{ name: '@mariozechner/pi-agent-core', versions: PI_AGENT_CORE_VERSIONS }],
  hookedFiles: [/\/node_modules\/@mariozechner\/pi-agent-core\/dist\/agent-loop\.js$/],
  docs: 'docs/frameworks/pi-agent-core.md',
  readme: {
    framework: 'pi agent loop (`@mariozechner/pi-agent-core`, `pi-coding-agent`)',
    api: '`instrumentAgent(agent, listener)` for an `Agent`; `wrapTools(tools, listener)` for `AgentTool`s',
    reportedFailure: 'an error tool result (`isError: true`)',
  },
};
