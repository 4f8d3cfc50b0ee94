import { configDefaults, defineConfig } from 'vitest/config';
import { packageAliases } from './vitest.aliases.js';

/*
 * The tests in tiers, one vitest project each; every test file is in exactly one
 * (test/architecture/test-tiers.test.ts). `npm test` runs them all; `npm run test:unit` the fast
 * tier (core and adapters); `test:zero-code` and `test:stack` the others, which run apps, servers and builds.
 */

/**
 * Slow runs whose folder is a fast tier's, in `stack`: the hardening suite's soak runs (100,000 calls;
 * the heap of fresh processes), a minute between them, and MCP across two real processes (about 50 s).
 */
const SLOW = [
  'test/hardening/load.test.ts',
  'test/hardening/heap-leak.test.ts',
  'test/adapters/mcp/two-processes.test.ts',
];

const TIERS = {
  /** The listener API, the OpenTelemetry listener, internals, the hardening suite but its soak runs, the type tests. */
  core: ['test/*.test.ts', 'test/architecture/**', 'test/otel/**', 'test/internal/**', 'test/hardening/**'],
  /** Each framework's adapter, against the framework itself. */
  adapters: ['test/adapters/**'],
  /** The zero-code hooks in-process (test/instrumentation), then `register` in real apps (test/register). */
  'zero-code': ['test/instrumentation/**', 'test/register/**'],
  /** Real servers, builds, runtimes, the examples, the docs, the packed tarball, the benchmark; the slow runs. */
  stack: [
    ...SLOW,
    'test/observability/**',
    'test/deploy/**',
    'test/runtimes/**',
    'test/examples/**',
    'test/docs/**',
    'test/package/**',
    'test/bench/**',
  ],
};

/** The type tests (`*.test-d.ts`, wherever they live) are checked by one tsc run, in the core tier. */
const TYPE_TESTS = ['test/**/*.test-d.ts'];

export default defineConfig({
  resolve: { alias: packageAliases },
  test: {
    projects: Object.entries(TIERS).map(([name, globs]) => ({
      extends: true,
      test: {
        name,
        include: globs.map((glob) => (glob.endsWith('**') ? `${glob}/*.test.ts` : glob)),
        exclude: name === 'stack' ? configDefaults.exclude : [...configDefaults.exclude, ...SLOW],
        typecheck:
          name === 'core'
            ? { enabled: true, include: TYPE_TESTS, tsconfig: './tsconfig.json' }
            : { enabled: false, include: [] },
      },
    })),
    // the JSON report gives .ci/run its one-line summary
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
