import { readFileSync } from 'node:fs';
import type { Subpath } from '../../entry-points.js';

/**
 * The framework packages of each adapter entry point: what it may import, and what an app has beside
 * this package. package.json declares none of them, in no dependency field (design.md §1: an optional
 * peer brings its own peer tree into the app's resolution).
 */
export const ADAPTER_FRAMEWORKS: Partial<Record<Subpath, RegExp>> = {
  './ai-sdk': /^ai$/,
  './mcp': /^@modelcontextprotocol\//,
  './langchain': /^@langchain\/core$/,
  './openai-agents': /^@openai\/agents(-core)?$/,
  './anthropic': /^@anthropic-ai\/sdk$/,
  './claude-agent-sdk': /^@anthropic-ai\/claude-agent-sdk$/,
  './mastra': /^@mastra\//,
  './google-adk': /^@google\/adk$/,
  './llamaindex': /^@llamaindex\//,
  './genkit': /^(genkit|@genkit-ai\/.*)$/,
  './openai': /^openai$/,
  './google-genai': /^@google\/genai$/,
  './ai-sdk-mcp': /^@ai-sdk\/mcp$/,
  './pi-agent-core': /^@mariozechner\/pi-(agent-core|ai)$/,
  './openrouter': /^@openrouter\/(agent|sdk)$/,
  './bedrock-agent-runtime': /^@aws-sdk\/client-bedrock-agent-runtime$/,
};

export const isFrameworkPackage = (name: string) =>
  Object.values(ADAPTER_FRAMEWORKS).some((pattern) => pattern.test(name));

/**
 * The frameworks a test run installs, as `name@version`: the devDependencies of its manifest (the
 * root's for the main run, compat/'s for the compatibility run) that an adapter works with, and `zod`,
 * which the AI SDK's tools are written with.
 */
export function frameworksOf(manifestPath: string): string[] {
  const { devDependencies } = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  return Object.entries(devDependencies)
    .filter(([name]) => isFrameworkPackage(name) || name === 'zod')
    .map(([name, version]) => `${name}@${version}`);
}
