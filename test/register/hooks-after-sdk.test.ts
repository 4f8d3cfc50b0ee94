import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES } from '../runtimes/runtimes.js';
import { DEFAULT_SDK_PACKAGES } from './default-sdk-packages.js';
import { buildPackageIfMissing, fixtureFile, runUnderRegister, sdkLine } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

const nodeMajor = (runtime: { readonly name: string }) => Number(/^Node (\d+)/.exec(runtime.name)?.[1]);
// Node 20 here, and Node 22/24/26 where runtimes/ is installed (their in-thread hooks see require() too);
// the SDK 3.x line needs Node 22.15 or later
const NODES = RUNTIMES.filter(
  (runtime) =>
    runtime.name.startsWith('Node') && existsSync(runtime.executable) && (sdkLine === 2 || nodeMajor(runtime) >= 22),
);
const TIMEOUT = 120_000;

interface HookCall {
  readonly name: 'register' | 'registerHooks';
  readonly loaded: string[];
}

describe('otel-tool-calls/register: the ESM loader hook is installed once the SDK has loaded', () => {
  for (const runtime of NODES) {
    it(
      `${runtime.name}, SDK ${sdkLine}.x: one module hook registration (module.registerHooks from Node 22, so no DEP0205 on Node 26), after the trace and metrics SDKs and their exporters are loaded`,
      async () => {
        const run = await runUnderRegister('module-hooks-seen.mjs', {
          runtime: {
            executable: runtime.executable,
            args: (how) => ['--import', fixtureFile('module-hooks-spy.mjs'), `--${how}`, 'otel-tool-calls/register'],
          },
          env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
          timeoutMs: TIMEOUT,
        });
        expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
        const calls = JSON.parse(run.stdout) as HookCall[];
        // Node's in-thread hooks where import-in-the-middle runs them (22.22.3+, 24.11.1+, 26: the
        // installed runtimes), else module.register(), deprecated on 26 (DEP0205 on stderr)
        expect(calls.map((call) => call.name)).toEqual([nodeMajor(runtime) === 20 ? 'register' : 'registerHooks']);
        // so the SDK's few hundred require()s went through no hook of register's
        expect(calls[0]?.loaded).toEqual(expect.arrayContaining([...DEFAULT_SDK_PACKAGES]));
      },
      TIMEOUT,
    );
  }
});
