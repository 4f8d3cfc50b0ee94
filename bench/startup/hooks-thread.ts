/**
 * The cost of Node's off-thread module hooks alone, as a preload: `module.register()` of a hook
 * that changes nothing (bench/startup/no-op-hook.ts). Node then starts a hooks thread (a worker with
 * its own V8 isolate) and sends every ES module's resolve and load through it. On Node 20, the only
 * way to patch ES modules as they load; register pays it there (src/register/esm-hooks.ts).
 */
import { register } from 'node:module';

register('./no-op-hook.mjs', import.meta.url);
