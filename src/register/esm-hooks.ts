import * as nodeModule from 'node:module';
import { bunPlugins } from './bun-plugin.js';

/** What a runtime's `node:module` may have: `registerHooks` (Node 22.15+), `register` (Node 20.6+, deprecated in 26). */
interface ModuleHooksApi {
  readonly registerHooks?: unknown;
  readonly register?: (specifier: string, parentURL: string, options: { data: unknown }) => void;
}

interface SyncHooks {
  register(options: { include: readonly RegExp[] }): void;
  supportsSyncHooks(): boolean;
}

const PREFIX = 'otel-tool-calls/register:';

/**
 * Installs import-in-the-middle's loader hook for the framework files the instrumentation patches
 * (`include`; every other module loads untouched), so that ES modules are patched as they load.
 * CommonJS needs no hook: require-in-the-middle.
 *
 * - Node with a `module.registerHooks` that import-in-the-middle can run on (22.22.3+, 24.11.1+,
 *   26): its in-thread hooks. On Node 26 `module.register()` prints a DEP0205 warning on every run,
 *   a line the app would not print.
 * - other Node (20, older 22/24): `module.register()`, off-thread, as before.
 * - Bun and Deno: see `zeroCodeReach`.
 *
 * Returns what zero-code observes here: `'all'`, `'require'` (CommonJS only) or `'none'`.
 */
export function registerEsmHooks(include: readonly RegExp[], parentUrl: string): ZeroCodeReach {
  const reach = zeroCodeReach();
  return reach === 'all' ? registerNodeHooks(include, parentUrl) : reach;
}

/** What zero-code observes: every framework, those loaded with `require()` only, or none. */
export type ZeroCodeReach = 'all' | 'require' | 'none';

/**
 * What zero-code can observe on this runtime, before any hook is installed; one line says it where
 * it is less than all (never silence):
 * - Bun: its loader runs no such hooks; its runtime plugins do the same (bun-plugin.ts). A Bun without
 *   `Bun.plugin`: an ES module import of a framework cannot be patched, `require()` is (require-in-the-middle).
 * - Deno: neither is observed, and an app under register did not end (the SDK's handles): nothing
 *   is to be started (never a crash, never silence, never a hang).
 */
export function zeroCodeReach(): ZeroCodeReach {
  const runtime = otherRuntime();
  if (runtime === 'Bun') {
    if (bunPlugins() !== undefined) return 'all';
    console.warn(
      `${PREFIX} under Bun, frameworks loaded with \`import\` are not observed (no Node loader hooks), those loaded with \`require()\` are; use the adapters (wrapTools, instrumentServer, ...) for the others`,
    );
    return 'require';
  }
  if (runtime === 'Deno') {
    console.warn(
      `${PREFIX} zero-code does not run under Deno (no Node loader hooks): nothing is observed; use the adapters (wrapTools, instrumentServer, ...)`,
    );
    return 'none';
  }
  return 'all';
}

/** Node's hooks, in-thread where import-in-the-middle can run them, off-thread otherwise (see registerEsmHooks). */
export function registerNodeHooks(include: readonly RegExp[], parentUrl: string): 'all' | 'require' {
  const api = nodeModule as ModuleHooksApi;
  if (typeof api.registerHooks === 'function') {
    const syncHooks = loadSyncHooks(parentUrl);
    if (syncHooks?.supportsSyncHooks()) {
      syncHooks.register({ include });
      return 'all';
    }
  }
  if (typeof api.register === 'function') {
    api.register('@opentelemetry/instrumentation/hook.mjs', parentUrl, { data: { include } });
    return 'all';
  }
  console.warn(`${PREFIX} this runtime has no module loader hooks: frameworks loaded with \`import\` are not observed`);
  return 'require';
}

/** Bun and Deno give `node:module` (Deno: `register` missing; Bun: hooks that never run for `import`). */
function otherRuntime(): 'Bun' | 'Deno' | undefined {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.bun !== undefined) return 'Bun';
  if (versions.deno !== undefined) return 'Deno';
  return undefined;
}

/**
 * import-in-the-middle's in-thread hooks, the copy `@opentelemetry/instrumentation` patches with
 * (its own dependency, so resolved from there: from its entry file, the one path every line of it
 * exports; 0.300 on exports no `./package.json`). `undefined` when it has none (import-in-the-middle
 * before 3.1): the off-thread hook is used then.
 */
function loadSyncHooks(parentUrl: string): SyncHooks | undefined {
  try {
    const fromHere = nodeModule.createRequire(parentUrl);
    const fromInstrumentation = nodeModule.createRequire(fromHere.resolve('@opentelemetry/instrumentation'));
    return fromInstrumentation('import-in-the-middle/register-hooks.mjs') as SyncHooks;
  } catch {
    return undefined;
  }
}
