/**
 * The ESM loader hook of register alone, as a preload, with no SDK and no instrumentation:
 * import-in-the-middle's hook for the files the instrumentation patches, the way register installs
 * it on this runtime (src/register/esm-hooks.ts: in-thread `module.registerHooks` where Node has
 * one import-in-the-middle can run on, `module.register()`'s hooks thread otherwise).
 */
import { ESM_HOOKED_FILES } from '../../src/instrumentation/hooked-files.js';
import { registerEsmHooks } from '../../src/register/esm-hooks.js';

registerEsmHooks(ESM_HOOKED_FILES, import.meta.url);
