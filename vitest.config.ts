import { defineConfig } from 'vitest/config';
import { packageAliases } from './vitest.aliases.js';

export default defineConfig({
  resolve: { alias: packageAliases },
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // the JSON report gives .ci/run its one-line summary
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
