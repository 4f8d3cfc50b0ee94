/**
 * An ES module app that starts NodeSDK with ToolCallsInstrumentation itself (no register), in a file it
 * preloads with `--import`: a framework it then imports is patched only through Node's loader hook,
 * which neither NodeSDK nor `@vercel/otel`'s `registerOTel` registers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from '../register/run-app.js';

const preload = new URL('./fixtures/sdk-preload.mjs', import.meta.url).pathname;

/** The AI SDK app of the register tests (generateText, streamText, an agent), under the app's own SDK. */
const runWithOwnSdk = (loaderHook: 'none' | 'own') =>
  runUnderRegister('ai-sdk.mjs', {
    preload: 'none',
    env: { NODE_OPTIONS: `--import ${preload}`, LOADER_HOOK: loaderHook },
    timeoutMs: 60_000,
  });

const callIds = (run: Awaited<ReturnType<typeof runWithOwnSdk>>) =>
  toolSpans(run)
    .map((span) => span.attributes['gen_ai.tool.call.id'])
    .sort();

let bare: Awaited<ReturnType<typeof runWithOwnSdk>>;
let hooked: Awaited<ReturnType<typeof runWithOwnSdk>>;

beforeAll(async () => {
  buildPackageIfMissing();
  bare = await runWithOwnSdk('none');
  hooked = await runWithOwnSdk('own');
}, 900_000);

describe('ToolCallsInstrumentation in an ES module app with its own NodeSDK', () => {
  it('registers the loader hook it needs: the frameworks the app imports are observed, each call once, with nothing on stderr', () => {
    expect(bare.code, bare.stderr).toBe(0);
    expect(callIds(bare).length).toBeGreaterThan(0);
    // what the app gets when it registers the hook itself, as OpenTelemetry's docs say
    expect(callIds(bare)).toEqual(callIds(hooked));
    expect(new Set(callIds(bare)).size).toBe(callIds(bare).length);
    expect(bare.stderr).toBe('');
  });

  it('an app that registers the loader hook itself: no second hook (Node 20 warned of one), each call observed once', () => {
    expect(hooked.code, hooked.stderr).toBe(0);
    expect(callIds(hooked).length).toBeGreaterThan(0);
    expect(new Set(callIds(hooked)).size).toBe(callIds(hooked).length);
    expect(hooked.stderr).toBe('');
  });
});
