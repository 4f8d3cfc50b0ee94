import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { toolCallThenText } from '../test/adapters/ai-sdk/mock-model.js';
import { createTestTelemetry, trace } from '../test/helpers/otel-sdk.js';

/**
 * Proves that the compatibility run really runs what it claims: Node 24, and the repo's own test
 * helpers (files under the repo root, whose bare imports would find the root node_modules first)
 * loading ai 7 and the OpenTelemetry SDK 3.x from compat/node_modules (and @google/genai 3 installed there).
 */
const compatRequire = createRequire(import.meta.url);

/** The version of a package as installed in compat/node_modules, from the package.json above its entry point. */
function installedVersion(name: string): string {
  const entry = compatRequire.resolve(name);
  expect(entry.startsWith(realpathSync(join(import.meta.dirname, 'node_modules')))).toBe(true);
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (!existsSync(path)) continue;
    const json = JSON.parse(readFileSync(path, 'utf8'));
    if (json.name === name) return json.version;
  }
  throw new Error(`no package.json of ${name} above ${entry}`);
}

describe('the compatibility run loads the versions it is about', () => {
  it('runs on Node 24', () => {
    expect(process.versions.node).toMatch(/^24\./);
  });

  it('has ai 7, OpenTelemetry SDK 3.x, exporters and sdk-node 0.30x and @opentelemetry/api 1.10 installed in compat/', () => {
    expect(installedVersion('ai')).toMatch(/^7\./);
    expect(installedVersion('@opentelemetry/sdk-trace')).toMatch(/^3\./);
    expect(installedVersion('@opentelemetry/sdk-metrics')).toMatch(/^3\./);
    expect(installedVersion('@opentelemetry/sdk-node')).toMatch(/^0\.30\d\./);
    expect(installedVersion('@opentelemetry/exporter-trace-otlp-http')).toMatch(/^0\.30\d\./);
    expect(installedVersion('@opentelemetry/api')).toMatch(/^1\.10\./);
  });

  it('has @google/genai 3 installed in compat/ (the Google Gen AI adapter and zero-code tests load it from there)', () => {
    expect(installedVersion('@google/genai')).toMatch(/^3\./);
  });

  it("the repo's OpenTelemetry test helper builds its providers from SDK 3.x", async () => {
    const telemetry = createTestTelemetry();
    try {
      telemetry.tracer.startSpan('probe').end();
      // the SDK stamps its own version (from @opentelemetry/core) on every span's resource
      const [span] = telemetry.spans();
      expect(span?.resource.attributes['telemetry.sdk.version']).toMatch(/^3\./);
    } finally {
      await telemetry.shutdown();
    }
  });

  it("the repo's OpenTelemetry test helper registers @opentelemetry/api 1.10 globally", () => {
    createTestTelemetry();
    // the API keeps the version of the copy that registered the global context manager
    const registered = (globalThis as Record<symbol, { version?: string } | undefined>)[
      Symbol.for('opentelemetry.js.api.1')
    ];
    expect(registered?.version).toBe(installedVersion('@opentelemetry/api'));
    expect(trace.getTracerProvider()).toBeDefined();
  });

  it("the repo's AI SDK mock model helper builds its model with ai 7's ai/test", () => {
    const model = toolCallThenText({ toolName: 'probe', input: {}, toolCallId: 'c1' });
    // a class identity check: the helper's MockLanguageModelV3 is the one this file got from compat/
    expect(model).toBeInstanceOf(MockLanguageModelV3);
    expect(installedVersion('ai')).toMatch(/^7\./);
  });
});
