import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { distName, ENTRY_POINTS, type Subpath } from '../../entry-points.js';
import { ADAPTER_FRAMEWORKS, isFrameworkPackage } from './framework-packages.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const isAdapter = (subpath: Subpath) => ENTRY_POINTS[subpath].startsWith('src/adapters/');
/** The frameworks an entry point may reach: an adapter its own, every other entry point none. */
const neededBy = (subpath: Subpath): RegExp | undefined => ADAPTER_FRAMEWORKS[subpath];

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Records each framework the bundle imports, and fails the bundle (as a bundler does when the framework
 * is not installed) on one the entry point does not need. Everything else is bundled, as an app's
 * bundler would: `@opentelemetry/*` from node_modules, Node's built-ins left to the runtime.
 */
function frameworkGuard(subpath: Subpath, reached: Set<string>): Plugin {
  return {
    name: 'framework-guard',
    setup(bundle) {
      bundle.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = packageOf(args.path);
        if (!isFrameworkPackage(name)) return undefined;
        reached.add(name);
        if (neededBy(subpath)?.test(name)) return { path: args.path, external: true };
        return { errors: [{ text: `Could not resolve "${args.path}" (the framework is not installed)` }] };
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
  if (!existsSync(`${root}dist/index.js`))
    throw new Error('dist/ is missing: run `npm run build` (npm test builds first)');
});

describe('dist/', () => {
  it('has no copy of a package: every framework and SDK package is imported from the app', () => {
    // esbuild heads each module it bundles with a `// <its path>` comment; tsup's own shim
    // (import.meta.url in CommonJS) is the one file of node_modules that belongs in dist/
    const bundling = readdirSync(`${root}dist`)
      .filter((file) => /\.c?js$/.test(file))
      .filter((file) => /^\/\/ \S*node_modules\/(?!tsup\/assets\/)/m.test(readFileSync(`${root}dist/${file}`, 'utf8')));
    expect(bundling).toEqual([]);
  });
});

describe('bundling each entry point (esbuild)', () => {
  for (const subpath of Object.keys(ENTRY_POINTS) as Subpath[]) {
    for (const format of ['esm', 'cjs'] as const) {
      it(`${subpath} (${format}) bundles without a framework it does not need`, async () => {
        if (isAdapter(subpath)) {
          expect(
            neededBy(subpath),
            `add ${subpath}'s framework packages to ADAPTER_FRAMEWORKS (framework-packages.ts)`,
          ).toBeDefined();
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
