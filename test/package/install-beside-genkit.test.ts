/**
 * This package installed beside Genkit, as a Genkit user does it: the packed tarball added to an app
 * with `genkit` 1.42.0, with npm's own peer resolution (no `--legacy-peer-deps`).
 * Genkit depends on the OpenTelemetry SDK 1.x line (`sdk-node` 0.52, `context-async-hooks` 1.25),
 * which npm hoists to the app's node_modules: an optional peer range of this package on those
 * packages made the install fail with ERESOLVE.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstalledApp, installIntoExistingApp, runInApp } from '../helpers/readme-install.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GENKIT_VERSION = '1.42.0';

let app: InstalledApp;

beforeAll(async () => {
  app = await installIntoExistingApp([`genkit@${GENKIT_VERSION}`]);
}, 630_000);

afterAll(() => app?.remove());

const versionIn = (name: string) =>
  JSON.parse(readFileSync(join(app.dir, 'node_modules', name, 'package.json'), 'utf8')).version as string;

/** Runs an ES module program in the app; what it prints. */
const node = (program: string) => runInApp(app, program);

describe(`installing otel-tool-calls beside genkit ${GENKIT_VERSION}`, () => {
  it('installs with no peer conflict and no flags, beside the SDK 1.x packages Genkit brings', () => {
    expect(app.added.stderr).not.toMatch(/ERESOLVE/);
    expect(versionIn('genkit')).toBe(GENKIT_VERSION);
    expect(versionIn('otel-tool-calls')).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
    // what made the optional peer ranges conflict: Genkit's SDK line, hoisted to the app
    expect(versionIn('@opentelemetry/sdk-node')).toMatch(/^0\.5\d\./);
  });

  it('observes a tool call with the root entry point (only @opentelemetry/api needed)', async () => {
    const output = await node(`
      import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
      const weather = ToolCallListeners.wrap(
        functionToolCallback({ name: 'weather' }, async ({ city }) => 'sunny in ' + city),
        new OpenTelemetryToolCallListener(),
      );
      console.log(await weather.call({ city: 'Paris' }));`);
    expect(output).toBe('sunny in Paris');
  });

  it('an SDK package of an unsupported line is refused when loaded, naming it, its range, the version found and the fix', async () => {
    const output = await node(`
      import { startToolCallTelemetry } from 'otel-tool-calls/setup';
      try {
        startToolCallTelemetry({ serviceName: 'genkit-app', traces: 'none', metrics: 'none' });
        console.log('started');
      } catch (error) {
        console.log(error.message);
      }`);
    // the first SDK package the start loads is refused (the resource, today): named with its range and version
    const refused =
      /startToolCallTelemetry \(.+?\) needs (@opentelemetry\/[a-z-]+) (>=\S+ <\d+), but \1 (\S+) is the installed copy/.exec(
        output,
      );
    expect(refused, output).not.toBeNull();
    const [, name = '', , version] = refused ?? [];
    expect(version).toBe(versionIn(name));
    expect(output).toMatch(new RegExp(`Install a supported one with: npm install -E ${name}@\\d+\\.\\d+\\.\\d+$`));
  });

  it('the instrumentation refuses the @opentelemetry/instrumentation of the line Genkit brings when constructed, naming it', async () => {
    const output = await node(`
      import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';
      try {
        new ToolCallsInstrumentation();
        console.log('constructed');
      } catch (error) {
        console.log(error.message);
      }`);
    expect(output).toContain(
      `ToolCallsInstrumentation needs @opentelemetry/instrumentation >=0.200.0 <1, but @opentelemetry/instrumentation ${versionIn('@opentelemetry/instrumentation')} is the installed copy`,
    );
  });
});
