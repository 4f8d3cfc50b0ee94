import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // tests and examples import the package by its public name, as users do
    alias: [
      { find: /^otel-tool-calls$/, replacement: src('index.ts') },
      { find: /^otel-tool-calls\/setup$/, replacement: src('setup.ts') },
      { find: /^otel-tool-calls\/(ai-sdk|mcp|langchain|openai-agents)$/, replacement: src('adapters/$1.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // the JSON report gives .ci/run its one-line summary
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
