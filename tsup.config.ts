import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    setup: 'src/setup.ts',
    'ai-sdk': 'src/adapters/ai-sdk.ts',
    mcp: 'src/adapters/mcp.ts',
    langchain: 'src/adapters/langchain.ts',
    'openai-agents': 'src/adapters/openai-agents.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
