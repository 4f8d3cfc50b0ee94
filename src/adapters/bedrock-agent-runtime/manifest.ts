import type { SupportedVersions } from '../../internal/version-range.js';
import type { FrameworkManifest } from '../framework-manifest.js';

/** `@aws-sdk/client-bedrock-agent-runtime` 3.x (return of control of `InvokeAgent` and `InvokeInlineAgent`), as the adapter. */
export const BEDROCK_AGENT_RUNTIME_VERSIONS: SupportedVersions = { from: '3.700.0', belowMajor: 4 };

export const manifest: FrameworkManifest = {
  subpath: './bedrock-agent-runtime',
  packages: [{ name: '@aws-sdk/client-bedrock-agent-runtime', versions: BEDROCK_AGENT_RUNTIME_VERSIONS }],
  // no ES module build for Node (its `main` is CommonJS): an ES module app imports dist-cjs/index.js
  hookedFiles: [/\/node_modules\/@aws-sdk\/client-bedrock-agent-runtime\/dist-cjs\/index\.js$/],
  docs: 'docs/frameworks/bedrock-agent-runtime.md',
  readme: {
    framework: 'Bedrock agents, return of control (`@aws-sdk/client-bedrock-agent-runtime`)',
    api: '`instrumentClient(client, listener)` for a `BedrockAgentRuntimeClient`',
    reportedFailure: 'none: the app sends the results (a `FAILURE` result is the call’s error)',
  },
};
