import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, fixtures, root, runUnderRegister, toolSpans } from '../test/register/run-app.js';

/**
 * test/register's AI SDK app, with no telemetry code, on ai 7, the OpenTelemetry JS SDK 3.x and
 * Node 24: an app folder inside compat/node_modules (so that every bare import, the package's own
 * included, finds compat's versions) with the built package copied into its node_modules.
 */
let app: string;

beforeAll(() => {
  buildPackageIfMissing();
  const cache = fileURLToPath(new URL('./node_modules/.cache/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  app = mkdtempSync(join(cache, 'zero-code-'));
  const own = join(app, 'node_modules', 'otel-tool-calls');
  mkdirSync(own, { recursive: true });
  cpSync(join(root, 'dist'), join(own, 'dist'), { recursive: true });
  copyFileSync(join(root, 'package.json'), join(own, 'package.json'));
  writeFileSync(join(app, 'package.json'), '{ "type": "module" }');
  for (const file of ['ai-sdk.mjs', 'ai-sdk.cjs', 'own-sdk-ai.cjs', 'scripted-ai-model.mjs']) {
    copyFileSync(join(fixtures, file), join(app, file));
  }
}, 120_000);

afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('zero-code on ai 7, OpenTelemetry SDK 3.x, Node 24', () => {
  it.each([
    ['ai-sdk.mjs', 'import'],
    ['ai-sdk.cjs', 'require'],
  ] as const)(
    '%s under --%s otel-tool-calls/register: one execute_tool span and sample per call',
    async (file, preload) => {
      const run = await runUnderRegister(join(app, file), { preload, cwd: app });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        'generateText: getWeather:json,convertCurrency:error-text,getWeather:error-text,getWether:error-text\n' +
          'streamText: getWeather:json,getWether:error-text\nagent: getWeather:json\n',
      );
      // the calls the SDK rejects (call_5 to call_7) included: one span and sample per call the model made
      expect(
        toolSpans(run)
          .map((span) => span.attributes['gen_ai.tool.call.id'])
          .sort(),
      ).toEqual(['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6', 'call_7']);
      expect(
        toolSpans(run)
          .filter((span) => span.attributes['tool_call.error.source'] === 'model')
          .map((span) => span.attributes['error.type'])
          .sort(),
      ).toEqual(['AI_InvalidToolInputError', 'AI_NoSuchToolError', 'AI_NoSuchToolError']);
      expect(run.metrics.find((metric) => metric.name === 'gen_ai.execute_tool.duration')?.total).toBe(7);
    },
  );

  // @opentelemetry/api 1.10 is two copies (its ES module and its CommonJS build): under --import,
  // register's is the ES module, the app's SDK uses the CommonJS one
  it.each(['import', 'require'] as const)(
    "own-sdk-ai.cjs under --%s otel-tool-calls/register: the app keeps its own SDK, the tool call's span goes to it",
    async (preload) => {
      const run = await runUnderRegister(join(app, 'own-sdk-ai.cjs'), {
        preload,
        cwd: app,
        env: { OTEL_LOG_LEVEL: 'error' },
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        'span: execute_tool getWeather < handle request\n' +
          'span: handle request < root\n' +
          'propagation fields: x-app-trace\n',
      );
      expect(run.spans).toEqual([]);
    },
  );
});
