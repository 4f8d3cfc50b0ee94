import { isMainThread } from 'node:worker_threads';
import { ESM_LOADER_HOOK_KEY as REGISTERED } from '../internal/protocol.js';
import { registerBunPlugin } from '../register/bun-plugin.js';
import { registerNodeHooks } from '../register/esm-hooks.js';
import { ESM_HOOKED_FILES } from './hooked-files.js';

/** Set by the first registration, for the whole process: another copy of this package sees it too. */

/**
 * import-in-the-middle's loader hook for the framework files the instrumentation patches
 * (`ESM_HOOKED_FILES`; every other module loads untouched), registered once per process, in its main
 * thread, on Node. A framework loaded with `import` is patched only through it, and NodeSDK,
 * `registerInstrumentations` and `@vercel/otel`'s `registerOTel` register none: without it an ES module
 * app (Next.js loads its server external packages with `import()`) got no tool span, and no word why.
 * `otel-tool-calls/register` registers it through here too. Not when the app has registered one that
 * hooks every module (it covers the frameworks too). Bun runs no such hooks: a runtime plugin does the
 * same there (register/bun-plugin.ts). Deno runs neither (`zeroCodeReach`).
 */
export function hookFrameworkModulesOnce(parentUrl: string): void {
  const versions = process.versions as Record<string, string | undefined>;
  if (!isMainThread || versions.deno !== undefined) return;
  const processWide = globalThis as { [REGISTERED]?: true };
  if (processWide[REGISTERED]) return;
  processWide[REGISTERED] = true;
  if (versions.bun !== undefined) registerBunPlugin(ESM_HOOKED_FILES, parentUrl);
  else if (!everyModuleIsHooked()) registerNodeHooks(ESM_HOOKED_FILES, parentUrl);
}

/**
 * Whether import-in-the-middle's hook is registered for every module (the app's own
 * `register('@opentelemetry/instrumentation/hook.mjs')`, as OpenTelemetry's docs say): it resolves this
 * package's entry point to its wrapper (`?iitm=`). A second hook would patch nothing more, and Node 20
 * warned that the hook was initialized twice. Not known in the CommonJS build (no `import.meta.resolve`)
 * or a bundle that has none: registered then.
 */
function everyModuleIsHooked(): boolean {
  try {
    return import.meta.resolve('otel-tool-calls').includes('iitm=');
  } catch {
    return false;
  }
}
