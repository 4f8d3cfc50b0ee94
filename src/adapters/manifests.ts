import { manifest as aiSdk } from './ai-sdk/manifest.js';
import { manifest as aiSdkMcp } from './ai-sdk-mcp/manifest.js';
import { manifest as anthropic } from './anthropic/manifest.js';
import { manifest as bedrockAgentRuntime } from './bedrock-agent-runtime/manifest.js';
import { manifest as claudeAgentSdk } from './claude-agent-sdk/manifest.js';
import type { FrameworkManifest } from './framework-manifest.js';
import { manifest as genkit } from './genkit/manifest.js';
import { manifest as googleAdk } from './google-adk/manifest.js';
import { manifest as googleGenai } from './google-genai/manifest.js';
import { manifest as langchain } from './langchain/manifest.js';
import { manifest as llamaindex } from './llamaindex/manifest.js';
import { manifest as mastra } from './mastra/manifest.js';
import { manifest as mcp } from './mcp/manifest.js';
import { manifest as openai } from './openai/manifest.js';
import { manifest as openaiAgents } from './openai-agents/manifest.js';
import { manifest as openrouter } from './openrouter/manifest.js';
import { manifest as piAgentCore } from './pi-agent-core/manifest.js';

/** Every framework's record, in the README table's order: what `npm run generate` writes the wiring from. */
export const FRAMEWORK_MANIFESTS: readonly FrameworkManifest[] = [
  aiSdk,
  mcp,
  langchain,
  openaiAgents,
  anthropic,
  claudeAgentSdk,
  mastra,
  googleAdk,
  llamaindex,
  genkit,
  openai,
  googleGenai,
  aiSdkMcp,
  piAgentCore,
  openrouter,
  bedrockAgentRuntime,
];
