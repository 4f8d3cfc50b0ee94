import { fileURLToPath } from 'node:url';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** Tests and examples import the package by its public name, as users do: these map it to src/. */
export const packageAliases = [
  { find: /^otel-tool-calls$/, replacement: src('index.ts') },
  { find: /^otel-tool-calls\/setup$/, replacement: src('setup.ts') },
  { find: /^otel-tool-calls\/(ai-sdk|mcp|langchain|openai-agents)$/, replacement: src('adapters/$1.ts') },
];
