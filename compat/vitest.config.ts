import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { packageAliases } from '../vitest.aliases.js';

/**
 * The compatibility run: the repo's own OpenTelemetry, AI SDK, Anthropic SDKs and Google Gen AI tests and
 * the zero-code suite, unchanged, against the newer majors installed in compat/node_modules (ai 7,
 * OpenTelemetry JS SDK 3.x, @opentelemetry/api 1.10, @google/genai 3; the Anthropic SDKs at the versions
 * the root tests), on Node 24.
 * Started by scripts/compat.sh.
 */
const repo = fileURLToPath(new URL('..', import.meta.url));
/** Any file in compat/: bare imports resolved "from here" find compat/node_modules first. */
const compatAnchor = fileURLToPath(import.meta.url);
// resolved ids are real paths: compare with the real path of compat/node_modules (it may be a symlink)
const compatModules = `${realpathSync(fileURLToPath(new URL('./node_modules', import.meta.url)))}/`;

/**
 * The packages whose version this run is about. The test files and src/ live under the repo root, so
 * Node's lookup would find the root node_modules (ai 6, SDK 2.x) first; these must come from
 * compat/node_modules instead, for every importer. `vitest` is here so that the tests talk to the
 * runner that runs them, not to the root's copy.
 */
const REDIRECTED =
  /^(ai|zod|vitest|@ai-sdk\/[^/]+|@anthropic-ai\/[^/]+|@google\/genai|@opentelemetry\/[^/]+|@vitest\/[^/]+)(\/.*)?$/;

/**
 * Resolves every REDIRECTED bare import as if it were written in compat/, and fails when compat/ does
 * not have the package, rather than letting it fall through to the root's older copy: a package that
 * a newer major no longer publishes (such as `@opentelemetry/sdk-trace-base`, gone in SDK 3) must
 * break this run, not be silently taken from SDK 2.x.
 */
function resolveFromCompat(): Plugin {
  return {
    name: 'otel-tool-calls:resolve-from-compat',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!REDIRECTED.test(source)) return null;
      const resolved = await this.resolve(source, compatAnchor, { ...options, skipSelf: true });
      // Node's lookup walks up from compat/ to the root node_modules too: only compat/'s own copy counts
      if (resolved?.id.startsWith(compatModules)) return resolved;
      this.error(
        `compat: '${source}' (imported by ${importer ?? 'the runner'}) is not installed in compat/node_modules; ` +
          'the root copy is not used in this run',
      );
    },
  };
}

/** src/internal/optional-package.ts: `otel-tool-calls/setup` requires its SDK packages through it, at call time. */
const optionalPackageLoader = fileURLToPath(new URL('../src/internal/optional-package.ts', import.meta.url));

/**
 * The same rule for the packages `setup` loads with `require()` when it is called: Node resolves those
 * from src/, past this config's resolver, and would find the root's SDK 2.x. In this run they are
 * required relative to compat/ instead.
 */
function requireFromCompat(): Plugin {
  return {
    name: 'otel-tool-calls:require-from-compat',
    transform(code, id) {
      if (id !== optionalPackageLoader) return null;
      const anchored = code.replace('createRequire(import.meta.url)', `createRequire(${JSON.stringify(compatAnchor)})`);
      if (anchored === code)
        this.error('compat: src/internal/optional-package.ts no longer calls createRequire(import.meta.url)');
      return anchored;
    },
  };
}

/**
 * Repo tests that check an ai 6 behaviour of the AI SDK itself, not of the adapter, and so cannot pass
 * on ai 7 as written. Each is left out by its exact full name (a renamed test runs again); remove a
 * name here once its test is version-neutral.
 */
const AI_6_ONLY_TESTS = [
  // ai 7 makes no OpenTelemetry spans itself: `experimental_telemetry: { tracer }` is ignored, the spans
  // come from an @ai-sdk/otel integration. compat/ai-sdk-otel-integration.test.ts is its ai 7 version.
  "nests under the AI SDK's own ai.toolCall span when the AI SDK's telemetry is on",
];
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The zero-code suite (test/register) on the SDK 3.x line, each app with the variables a user sets,
 * as on the 2.x line. Its other files need a framework compat/ does not install: LangChain (langchain,
 * examples), LlamaIndex, Genkit, the OpenAI Agents SDK; shutdown-timeout is a unit test of no SDK.
 * The MCP SDK 1.x is here as the Claude Agent SDK's dependency, the 2.x split packages are not. Within
 * these files, a case that cannot run here says why where it is left out.
 */
const ZERO_CODE_SUITE = [
  'test/register/ai-sdk.test.ts',
  'test/register/anthropic.test.ts',
  'test/register/api-flush.test.ts',
  'test/register/app-sdk.test.ts',
  'test/register/before-exit.test.ts',
  'test/register/decisions.test.ts',
  'test/register/default-variables.test.ts',
  'test/register/diagnostics.test.ts',
  'test/register/hooks-after-sdk.test.ts',
  'test/register/lean-start.test.ts',
  'test/register/lifecycle.test.ts',
  'test/register/mcp.test.ts',
  'test/register/mcp-operations.test.ts',
  'test/register/node-sdk-start.test.ts',
  'test/register/observed-once.test.ts',
  'test/register/openai.test.ts',
  'test/register/ai-sdk-mcp.test.ts',
  'test/register/google-genai.test.ts',
  'test/register/sdk-parity.test.ts',
  'test/register/shutdown-bound.test.ts',
  'test/register/signals.test.ts',
  'test/register/pi-agent-core.test.ts',
  'test/register/openrouter.test.ts',
  'test/register/bedrock-agent-runtime.test.ts',
];

export default defineConfig({
  root: repo,
  plugins: [resolveFromCompat(), requireFromCompat()],
  resolve: { alias: packageAliases },
  test: {
    include: [
      'compat/**/*.test.ts',
      'test/otel/**/*.test.ts',
      'test/setup.test.ts',
      'test/adapters/ai-sdk/**/*.test.ts',
      'test/adapters/anthropic/**/*.test.ts',
      'test/adapters/claude-agent-sdk/**/*.test.ts',
      // openai needs Node 22 (its engines field): its adapter's tests run here on Node 24 too
      'test/adapters/openai/**/*.test.ts',
      // @ai-sdk/mcp 2.x (with ai 7) needs Node 22: the 1.x the root installs runs in the main run
      'test/adapters/ai-sdk-mcp/**/*.test.ts',
      // @google/genai 3 needs Node 22: the 2.x the root installs runs in the main run
      'test/adapters/google-genai/**/*.test.ts',
      // pi's agent loop on Node 24 (from the root node_modules: the package is not in compat/)
      'test/adapters/pi-agent-core/**/*.test.ts',
      // OpenRouter's callModel and Bedrock's return of control on Node 24 and SDK 3.x (the same: root node_modules)
      'test/adapters/openrouter/**/*.test.ts',
      'test/adapters/bedrock-agent-runtime/**/*.test.ts',
      ...ZERO_CODE_SUITE,
    ],
    // the app folder the zero-code suite's apps run in on this line
    globalSetup: ['compat/sdk3-app.ts'],
    exclude: ['**/node_modules/**'],
    // every test whose full name does not end with one of AI_6_ONLY_TESTS
    testNamePattern: new RegExp(`^(?!.*(?:${AI_6_ONLY_TESTS.map(escapeRegExp).join('|')})$)`),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
