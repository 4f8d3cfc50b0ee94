import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { distName, ENTRY_POINTS, type Subpath } from '../../entry-points.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** The optional peers that are agent frameworks (the OpenTelemetry SDK packages are the other optional peers). */
const FRAMEWORKS = Object.keys(manifest.peerDependenciesMeta).filter((name) => !name.startsWith('@opentelemetry/'));

/**
 * The frameworks an entry point may reach: an adapter its own, every other entry point none. An
 * adapter's entry point added to entry-points.ts needs its row here (the test says so).
 */
const NEEDED: Partial<Record<Subpath, RegExp>> = {
  './ai-sdk': /^ai$/,
  './mcp': /^@modelcontextprotocol\//,
  './langchain': /^@langchain\/core$/,
  './openai-agents': /^@openai\/agents(-core)?$/,
};
// the adapters the other issues add, by subpath (matched once their entry points exist)
const MORE_NEEDED: Record<string, RegExp> = {
  './anthropic': /^@anthropic-ai\/sdk$/,
  './claude-agent-sdk': /^@anthropic-ai\/claude-agent-sdk$/,
  './mastra': /^@mastra\//,
  './google-adk': /^@google\/adk$/,
  './llamaindex': /^@llamaindex\//,
  './genkit': /^(genkit|@genkit-ai\/.*)$/,
};
const isAdapter = (subpath: Subpath) => ENTRY_POINTS[subpath].startsWith('src/adapters/');
const neededBy = (subpath: Subpath): RegExp | undefined => NEEDED[subpath] ?? MORE_NEEDED[subpath];

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Records each framework the bundle imports, and fails the bundle (as a bundler does when the peer
 * is not installed) on one the entry point does not need. Everything else is bundled, as an app's
 * bundler would: `@opentelemetry/*` from node_modules, Node's built-ins left to the runtime.
 */
function frameworkGuard(subpath: Subpath, reached: Set<string>): Plugin {
  return {
    name: 'framework-guard',
    setup(bundle) {
      bundle.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = packageOf(args.path);
        if (!FRAMEWORKS.includes(name)) return undefined;
        reached.add(name);
        if (neededBy(subpath)?.test(name)) return { path: args.path, external: true };
        return { errors: [{ text: `Could not resolve "${args.path}" (the optional peer is not installed)` }] };
      });
    },
  };
}

async function bundleEntry(subpath: Subpath, format: 'esm' | 'cjs') {
  const reached = new Set<string>();
  const result = await build({
    entryPoints: [`${root}dist/${distName(subpath)}.${format === 'esm' ? 'js' : 'cjs'}`],
    bundle: true,
    write: false,
    platform: 'node',
    format,
    logLevel: 'silent',
    plugins: [frameworkGuard(subpath, reached)],
  });
  return { result, reached: [...reached].sort() };
}

beforeAll(() => {
  if (!existsSync(`${root}dist/index.js`)) throw new Error('dist/ is missing: run `npx tsup` (npm test builds first)');
});

describe('bundling each entry point (esbuild)', () => {
  for (const subpath of Object.keys(ENTRY_POINTS) as Subpath[]) {
    for (const format of ['esm', 'cjs'] as const) {
      it(`${subpath} (${format}) bundles without a framework it does not need`, async () => {
        if (isAdapter(subpath)) {
          expect(neededBy(subpath), `add ${subpath}'s framework packages to NEEDED in this test`).toBeDefined();
        }
        const { reached } = await bundleEntry(subpath, format);
        const needed = neededBy(subpath);
        expect(reached.filter((name) => !needed?.test(name))).toEqual([]);
      });
    }
  }

  it('the instrumentation and register reach no framework at all', async () => {
    for (const subpath of ['./instrumentation', './register'] as const) {
      expect((await bundleEntry(subpath, 'esm')).reached).toEqual([]);
      expect((await bundleEntry(subpath, 'cjs')).reached).toEqual([]);
    }
  });
});
