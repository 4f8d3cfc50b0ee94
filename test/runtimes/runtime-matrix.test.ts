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
    'Bun: zero-code observes a CommonJS app, its spans flushed over OTLP at exit, with nothing on stderr',
    async () => {
      const app = await underRegister(bun, 'ai-sdk.cjs');
      expect({ code: app.code, stderr: app.stderr }).toEqual({ code: 0, stderr: '' });
      expect(toolSpans(app).map((span) => span.attributes['gen_ai.tool.call.id'])).toContain('call_1');
      expect(app.metrics.map((metric) => metric.name)).toContain('gen_ai.execute_tool.duration');
    },
    TIMEOUT,
  );

  // ES modules through Bun's runtime plugin (register/bun-plugin.ts): the same spans as on Node
  for (const [fixture, expected] of [
    ['ai-sdk.mjs', ['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6', 'call_7']],
    ['anthropic.mjs', ['toolu_1', 'toolu_2']],
    ['openai.mjs', ['call_0', 'call_1', 'call_2']],
  ] as const) {
    it(
      `Bun: zero-code observes the ES module app ${fixture} as Node does, with nothing on stderr`,
      async () => {
        const onBun = await underRegister(bun, fixture);
        expect({ code: onBun.code, stderr: onBun.stderr }).toEqual({ code: 0, stderr: '' });
        const ids = toolSpans(onBun).map((span) => span.attributes['gen_ai.tool.call.id']);
        expect(ids.slice().sort()).toEqual([...expected]);
      },
      TIMEOUT,
    );
  }

  it(
    'Bun: an ES module MCP client and server are observed: one client and one server span per call',
    async () => {
      const app = await underRegister(bun, 'mcp.mjs');
      expect({ code: app.code, stderr: app.stderr }).toEqual({ code: 0, stderr: '' });
      const kinds = toolSpans(app).map((span) => `${span.attributes['gen_ai.tool.name']} ${span.kind}`);
      // OTLP's span kinds: SERVER 2, CLIENT 3
      expect(kinds.filter((kind) => kind.endsWith(' 3')).length).toBeGreaterThan(0);
      expect(kinds.filter((kind) => kind.endsWith(' 2')).length).toBe(
        kinds.filter((kind) => kind.endsWith(' 3')).length,
      );
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
