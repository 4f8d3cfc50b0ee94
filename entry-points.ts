/**
 * The package's entry points, declared once: subpath → source file. tsup builds each one (its
 * `dist/` name is the subpath, `index` for the root), the tests and examples alias each one to its
 * source (vitest.aliases.ts), and test/package/entry-points.test.ts checks that package.json
 * `exports` and tsconfig.json `paths` list exactly these.
 */
export const ENTRY_POINTS = {
  '.': 'src/index.ts',
  './semconv': 'src/otel/semconv.ts',
  './setup': 'src/setup.ts',
  './ai-sdk': 'src/adapters/ai-sdk/index.ts',
  './mcp': 'src/adapters/mcp/index.ts',
  './langchain': 'src/adapters/langchain/index.ts',
  './openai-agents': 'src/adapters/openai-agents/index.ts',
  './anthropic': 'src/adapters/anthropic/index.ts',
  './claude-agent-sdk': 'src/adapters/claude-agent-sdk/index.ts',
  './mastra': 'src/adapters/mastra/index.ts',
  './google-adk': 'src/adapters/google-adk/index.ts',
  './llamaindex': 'src/adapters/llamaindex/index.ts',
  './genkit': 'src/adapters/genkit/index.ts',
  './openai': 'src/adapters/openai/index.ts',
  './google-genai': 'src/adapters/google-genai/index.ts',
  './ai-sdk-mcp': 'src/adapters/ai-sdk-mcp/index.ts',
  './pi-agent-core': 'src/adapters/pi-agent-core/index.ts',
  './openrouter': 'src/adapters/openrouter/index.ts',
  './bedrock-agent-runtime': 'src/adapters/bedrock-agent-runtime/index.ts',
  './instrumentation': 'src/instrumentation/index.ts',
  './register': 'src/register.ts',
} as const;

export type Subpath = keyof typeof ENTRY_POINTS;

/** The name of an entry point's files in `dist/`: `index` for the root, else the subpath. */
export function distName(subpath: Subpath): string {
  return subpath === '.' ? 'index' : subpath.slice(2);
}

/** The import specifier of an entry point: `otel-tool-calls`, `otel-tool-calls/setup`, ... */
export function specifier(subpath: Subpath): string {
  return subpath === '.' ? 'otel-tool-calls' : `otel-tool-calls/${subpath.slice(2)}`;
}
