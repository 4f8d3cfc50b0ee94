import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/*
 * Zero-code for ES modules under Bun. Bun runs no Node loader hooks, but it has runtime plugins of
 * its own (`Bun.plugin`, effective for what loads after it, so from a `--preload` file): an `onLoad`
 * for the framework files the instrumentation patches (the same `ESM_HOOKED_FILES` Node's hook is
 * given) answers with a stand-in module that does what import-in-the-middle's Node hook does.
 *
 * The stand-in imports the original file under a query (`?otel-tool-calls-original`, a module of its
 * own that the filter does not match, so it loads as it is), exports each name the source declares
 * (Bun's own scan of it) as a live binding and the rest (`export *`) as they are, and hands
 * import-in-the-middle's `register` (its copy `@opentelemetry/instrumentation` hooks with) the
 * namespace with a setter and a getter per name: the instrumentation's patches
 * (`ToolCallsInstrumentation`, with the module name, version and file it matched) replace exports
 * through them, as on Node. A matched file that is CommonJS is require-in-the-middle's, as on Node.
 * Every other module loads untouched.
 */

const ORIGINAL_QUERY = '?otel-tool-calls-original';

/** What an `onLoad` answers: a module's source, or (the `object` loader) its exports. */
type LoadResult = { contents: string; loader: 'js' } | { exports: unknown; loader: 'object' };

interface BunPlugins {
  plugin(plugin: {
    name: string;
    setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => LoadResult): void }): void;
  }): void;
  resolveSync(specifier: string, from: string): string;
  Transpiler: new (options: { loader: 'js' }) => { scan(code: string): { exports: string[] } };
}

/** Whether this is Bun with runtime plugins. */
export function bunPlugins(): BunPlugins | undefined {
  const bun = (globalThis as { Bun?: Partial<BunPlugins> }).Bun;
  const complete =
    typeof bun?.plugin === 'function' && typeof bun.resolveSync === 'function' && typeof bun.Transpiler === 'function';
  return complete ? (bun as BunPlugins) : undefined;
}

/**
 * Registers the plugin for the files `include` matches; false when it cannot (not Bun, or no
 * import-in-the-middle beside `@opentelemetry/instrumentation`).
 */
export function registerBunPlugin(include: readonly RegExp[], parentUrl: string): boolean {
  const bun = bunPlugins();
  const registerUrl = importInTheMiddleRegister(parentUrl);
  if (bun === undefined || registerUrl === undefined) return false;
  const filter = new RegExp(include.map((pattern) => pattern.source).join('|'));
  const transpiler = new bun.Transpiler({ loader: 'js' });
  bun.plugin({
    name: 'otel-tool-calls',
    setup(build) {
      // synchronous: a module whose load is a promise is one `require()` refuses under Bun
      build.onLoad({ filter }, ({ path }): LoadResult => {
        // CommonJS is require-in-the-middle's, under Bun too: its exports as Bun loads them (under the
        // query, which this filter does not match), for require-in-the-middle to patch
        if (!isEsModule(path)) return { exports: createRequire(path)(`${path}${ORIGINAL_QUERY}`), loader: 'object' };
        const source = readFileSync(path, 'utf8');
        // the names read from the source, not by importing it: a framework's files import each other
        // in cycles, and an import awaited here would wait for the module being loaded
        const names = transpiler.scan(source).exports;
        return { contents: standInModule(path, names, registerUrl, specifierOf(bun, path)), loader: 'js' };
      });
    },
  });
  return true;
}

/** `.mjs`, or `.js` whose nearest package.json says `"type": "module"` (as Node decides). */
function isEsModule(path: string): boolean {
  if (path.endsWith('.mjs')) return true;
  if (!path.endsWith('.js')) return false;
  for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (!existsSync(manifest)) continue;
    try {
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
    } catch {
      return false;
    }
  }
  return false;
}

/** import-in-the-middle's `lib/register.js`, the copy `@opentelemetry/instrumentation` hooks through. */
function importInTheMiddleRegister(parentUrl: string): string | undefined {
  try {
    const fromHere = createRequire(parentUrl);
    const fromInstrumentation = createRequire(fromHere.resolve('@opentelemetry/instrumentation'));
    const main = fromInstrumentation.resolve('import-in-the-middle');
    return pathToFileURL(createRequire(main).resolve('./lib/register.js')).href;
  } catch {
    return undefined;
  }
}

/**
 * The specifier import-in-the-middle is told the file was imported by: the package's name when the
 * file is its main entry (what makes a patch of the package's main module apply), else the file's path.
 */
function specifierOf(bun: BunPlugins, path: string): string {
  const match = /^(.*\/node_modules\/)((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (match === null) return path;
  const [, modules, name] = match as unknown as [string, string, string];
  try {
    return bun.resolveSync(name, modules) === path ? name : path;
  } catch {
    return path;
  }
}

/** The source of the stand-in for the module at `path` with exports `names` (see above). */
function standInModule(path: string, names: readonly string[], registerUrl: string, specifier: string): string {
  const original = JSON.stringify(`${path}${ORIGINAL_QUERY}`);
  const lines = [
    `import * as original from ${original};`,
    // what the source re-exports with `export *` (names a scan does not list): passed on as they are
    `export * from ${original};`,
    `import { register } from ${JSON.stringify(registerUrl)};`,
    'const namespace = Object.assign(Object.create(null), original);',
    'const set = Object.create(null);',
    'const get = Object.create(null);',
  ];
  names.forEach((name, index) => {
    const key = JSON.stringify(name);
    lines.push(
      `let $${index} = original[${key}];`,
      `export { $${index} as ${key} };`,
      `set[${key}] = (value) => { $${index} = value; namespace[${key}] = value; return true; };`,
      `get[${key}] = () => $${index};`,
    );
  });
  lines.push(
    `register(${JSON.stringify(pathToFileURL(path).href)}, namespace, set, get, ${JSON.stringify(specifier)});`,
  );
  return lines.join('\n');
}
