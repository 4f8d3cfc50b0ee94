import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { buildPackageIfMissing, fixtures, root, runUnderRegister, sdkLine, toolSpans } from './run-app.js';

let unsupportedApp: string | undefined;

/**
 * An app folder whose node_modules has a stand-in `ai` 5.0.0 (ESM and CommonJS, the file layout
 * the instrumentation hooks) and otel-tool-calls (a link to this repo: its built dist/).
 */
beforeAll(() => {
  buildPackageIfMissing();
  if (sdkLine === 3) return;
  // inside the repo's node_modules, so that the linked package finds its own dependencies
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  unsupportedApp = mkdtempSync(join(root, 'node_modules', '.cache', 'zero-code-app-'));
  const ai = join(unsupportedApp, 'node_modules', 'ai');
  mkdirSync(join(ai, 'dist'), { recursive: true });
  const exports = { import: './dist/index.mjs', require: './dist/index.js' };
  writeFileSync(join(ai, 'package.json'), JSON.stringify({ name: 'ai', version: '5.0.0', exports }));
  const body = `async ({ tools }) => {
    const outputs = [];
    for (const tool of Object.values(tools)) outputs.push(await tool.execute({}, { toolCallId: 'call_1' }));
    return { text: outputs.join(',') };
  }`;
  writeFileSync(join(ai, 'dist', 'index.mjs'), `export const generateText = ${body};\n`);
  writeFileSync(join(ai, 'dist', 'index.js'), `exports.generateText = ${body};\n`);
  symlinkSync(root, join(unsupportedApp, 'node_modules', 'otel-tool-calls'));
  for (const file of ['unsupported-app.mjs', 'unsupported-app.cjs']) {
    copyFileSync(join(fixtures, file), join(unsupportedApp, file));
  }
}, 120_000);

afterAll(() => {
  if (unsupportedApp !== undefined) rmSync(unsupportedApp, { recursive: true, force: true });
});

describe('otel-tool-calls/register: the app behaves exactly as without it', () => {
  it.each(['throws.mjs', 'throws.cjs'])(
    '%s: an app that throws at startup exits with its own error and code',
    async (fixture) => {
      const bare = await runUnderRegister(fixture, { preload: 'none' });
      const run = await runUnderRegister(fixture);
      expect(bare.code).toBe(1);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('Error: startup failed: DATABASE_URL is not set');
      expect(run.stderr).toBe(bare.stderr);
    },
  );

  it('keeps the exit code the app sets, and flushes before the process exits', async () => {
    const run = await runUnderRegister('exit-code.mjs');
    expect(run.stdout).toBe('hello\n');
    expect(run.code).toBe(3);
    expect(toolSpans(run).map((span) => span.name)).toEqual(['execute_tool echo']);
  });

  it('an ES module whose top-level await never settles exits with 13, as Node ends it', async () => {
    const run = await runUnderRegister('unsettled-await.mjs');
    expect(run.stdout).toBe('hello\n');
    expect(run.code).toBe(13);
    expect(toolSpans(run).map((span) => span.name)).toEqual(['execute_tool echo']);
  });

  it('flushes on SIGTERM, then ends by that signal as the app would without it', async () => {
    const run = await runUnderRegister('long-running.mjs', {
      whenPrinted: { printed: 'ready', run: async (child) => void child.kill('SIGTERM') },
    });
    expect(run.signal).toBe('SIGTERM');
    expect(toolSpans(run).map((span) => span.name)).toEqual(['execute_tool echo']);
    expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(1);
  });

  it('OTEL_METRICS_EXPORTER=prometheus: the app serves gen_ai.execute_tool.duration on its /metrics endpoint', async () => {
    const port = await freePort();
    let scraped = '';
    const run = await runUnderRegister('long-running.mjs', {
      env: { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) },
      whenPrinted: {
        printed: 'ready',
        run: async (child) => {
          scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
          child.kill('SIGTERM');
        },
      },
    });
    expect(run.signal).toBe('SIGTERM');
    expect(scraped).toMatch(/gen_ai_execute_tool_duration_count\{[^}]*gen_ai_tool_name="echo"[^}]*\} 1/);
    expect(toolSpans(run)).toHaveLength(1);
  });

  it.each([
    ['http/protobuf', 'application/x-protobuf'],
    ['http/json', 'application/json'],
  ])('OTEL_EXPORTER_OTLP_PROTOCOL=%s: traces and metrics are sent as %s', async (protocol, contentType) => {
    const run = await runUnderRegister('exit-code.mjs', { env: { OTEL_EXPORTER_OTLP_PROTOCOL: protocol } });
    expect(run.code).toBe(3);
    for (const path of ['/v1/traces', '/v1/metrics']) {
      expect(run.requests.find((request) => request.path === path)?.contentType).toBe(contentType);
    }
  });

  it('OTEL_SDK_DISABLED=true: nothing is patched and nothing is sent', async () => {
    const run = await runUnderRegister('ai-sdk.mjs', { env: { OTEL_SDK_DISABLED: 'true' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('generateText: getWeather:json,convertCurrency:error-text');
    expect(run.spans).toEqual([]);
    expect(run.metrics).toEqual([]);
  });

  // its app folder is in the repo's node_modules, so its SDK is the 2.x line's
  it.skipIf(sdkLine === 3).each([
    ['unsupported-app.mjs', 'import'],
    ['unsupported-app.cjs', 'require'],
  ] as const)(
    '%s: a framework version outside the declared range is left alone, with a diag message',
    async (file, preload) => {
      const app = unsupportedApp as string;
      const run = await runUnderRegister(join(app, file), {
        preload,
        cwd: app,
        env: { OTEL_LOG_LEVEL: 'warn' },
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('looked up\n');
      expect(run.stderr).toContain(
        'ai 5.0.0 is outside the supported range >=6.0.0 <8: its tool calls are not observed',
      );
      expect(toolSpans(run)).toEqual([]);
    },
  );
});

// LangChain is not installed on the SDK 3.x line (compat/)
describe.skipIf(sdkLine === 3)('ToolCallsInstrumentation: enable() and disable()', () => {
  it.each(['toggle.cjs', 'toggle.mjs'])(
    '%s: disable() unpatches every framework and enable() patches it again',
    async (fixture) => {
      const run = await runUnderRegister(fixture, {
        preload: 'none',
        // toggle.mjs: the preload registers the ESM hook and keeps the instrumentation for the app
        env: fixture.endsWith('.mjs') ? { NODE_OPTIONS: `--import ${fixtures}toggle-preload.mjs` } : {},
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(
        'enabled: true,true,true one/one\ndisabled: false,false,false two/two\nenabled again: true,true,true three/three\n',
      );
      // the calls made while disabled are not observed: not the LangChain tool, not the MCP client,
      // not the MCP server instrumented before (its hooks stay, and do nothing)
      const names = toolSpans(run).map((span) => String(span.attributes['gen_ai.tool.name']));
      expect(names.sort()).toEqual(['echo', 'echo', 'mcp_echo', 'mcp_echo', 'mcp_echo', 'mcp_echo']);
    },
  );
});
