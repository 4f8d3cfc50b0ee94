import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES } from '../runtimes/runtimes.js';
import { DEFAULT_SDK_PACKAGES } from './default-sdk-packages.js';
import { buildPackageIfMissing, fixtures, runUnderRegister } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

// Node 20 here, and Node 22/24/26 where runtimes/ is installed (their in-thread hooks see require() too)
const NODES = RUNTIMES.filter((runtime) => runtime.name.startsWith('Node') && existsSync(runtime.executable));
const TIMEOUT = 120_000;

interface HookCall {
  readonly name: 'register' | 'registerHooks';
  readonly loaded: string[];
}

describe('otel-tool-calls/register: the ESM loader hook is installed once the SDK has loaded', () => {
  for (const runtime of NODES) {
    it(
      `${runtime.name}: one module hook registration, after the trace and metrics SDKs and their exporters are loaded`,
      async () => {
        const run = await runUnderRegister('module-hooks-seen.mjs', {
          runtime: {
            executable: runtime.executable,
            args: (how) => ['--import', `${fixtures}module-hooks-spy.mjs`, `--${how}`, 'otel-tool-calls/register'],
          },
          env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
          timeoutMs: TIMEOUT,
        });
        expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
        const calls = JSON.parse(run.stdout) as HookCall[];
        expect(calls).toHaveLength(1);
        // so the SDK's few hundred require()s went through no hook of register's
        expect(calls[0]?.loaded).toEqual(expect.arrayContaining([...DEFAULT_SDK_PACKAGES]));
      },
      TIMEOUT,
    );
  }
});
