import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { builtPackageExists, root, runUnderRegister, toolSpans } from '../register/run-app.js';
import { RUNTIMES, type Runtime, runtimesInstalled } from './runtimes.js';

const run = promisify(execFile);
const smoke = fileURLToPath(new URL('./fixtures/adapters-smoke.mjs', import.meta.url));
// a child runtime on a busy shared machine: a generous bound
const TIMEOUT = 120_000;
const ready = runtimesInstalled() && builtPackageExists();
const BUN_LINE =
  'otel-tool-calls/register: under Bun, frameworks loaded with `import` are not observed (no Node loader hooks), those loaded with `require()` are; use the adapters (wrapTools, instrumentServer, ...) for the others\n';
const DENO_LINE =
  'otel-tool-calls/register: zero-code does not run under Deno (no Node loader hooks): nothing is observed; use the adapters (wrapTools, instrumentServer, ...)\n';

const underRegister = (runtime: Runtime, fixture: string, env: Record<string, string> = {}) =>
  runUnderRegister(fixture, {
    runtime: { executable: runtime.executable, args: runtime.preload },
    env: { NO_COLOR: '1', ...env },
    timeoutMs: TIMEOUT,
  });

describe.skipIf(!ready)('the runtime matrix', () => {
  for (const runtime of RUNTIMES) {
    it(
      `${runtime.name}: the listener and the four adapters, from the built entry points`,
      async () => {
        const { stdout } = await run(runtime.executable, [...runtime.run, smoke], {
          cwd: root,
          env: { ...process.env, NO_COLOR: '1' },
          timeout: TIMEOUT,
        });
        expect(stdout.split('\n').filter(Boolean)).toEqual([
          'ok listener',
          'ok ai-sdk',
          'ok mcp',
          'ok langchain',
          'ok openai-agents',
        ]);
      },
      TIMEOUT,
    );
  }

  for (const runtime of RUNTIMES.filter((candidate) => candidate.name.startsWith('Node'))) {
    for (const fixture of ['ai-sdk.mjs', 'ai-sdk.cjs', 'mcp.mjs', 'langchain.mjs', 'openai-agents.mjs']) {
      it(
        `${runtime.name}: zero-code observes ${fixture}, with nothing on stderr`,
        async () => {
          const app = await underRegister(runtime, fixture);
          expect({ code: app.code, stderr: app.stderr }).toEqual({ code: 0, stderr: '' });
          expect(toolSpans(app).length).toBeGreaterThan(0);
        },
        TIMEOUT,
      );
    }
  }

  const bun = RUNTIMES.find((runtime) => runtime.name === 'Bun') as Runtime;
  it(
    'Bun: zero-code observes a CommonJS app, its spans flushed over OTLP at exit, and says in one line that ES module imports are not',
    async () => {
      const app = await underRegister(bun, 'ai-sdk.cjs');
      expect({ code: app.code, stderr: app.stderr }).toEqual({ code: 0, stderr: BUN_LINE });
      expect(toolSpans(app).map((span) => span.attributes['gen_ai.tool.call.id'])).toContain('call_1');
      expect(app.metrics.map((metric) => metric.name)).toContain('gen_ai.execute_tool.duration');
    },
    TIMEOUT,
  );

  it(
    'Bun: an ES module app runs as without register, and the one line says why nothing is observed',
    async () => {
      const app = await underRegister(bun, 'ai-sdk.mjs');
      expect({ code: app.code, stderr: app.stderr, spans: toolSpans(app) }).toEqual({
        code: 0,
        stderr: BUN_LINE,
        spans: [],
      });
      expect(app.stdout).toContain('generateText: getWeather:json');
    },
    TIMEOUT,
  );

  const deno = RUNTIMES.find((runtime) => runtime.name === 'Deno') as Runtime;
  for (const fixture of ['ai-sdk.mjs', 'ai-sdk.cjs']) {
    it(
      `Deno: ${fixture} under --preload npm:otel-tool-calls/register runs and ends as without it, with one line saying zero-code does not run`,
      async () => {
        const app = await underRegister(deno, fixture);
        expect({ code: app.code, signal: app.signal, stderr: app.stderr }).toEqual({
          code: 0,
          signal: null,
          stderr: DENO_LINE,
        });
        expect(app.stdout).toContain('generateText: getWeather:json');
      },
      TIMEOUT,
    );
  }
});
