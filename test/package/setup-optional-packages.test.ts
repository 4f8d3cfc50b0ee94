import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** What an app installed besides otel-tool-calls: the API, and the SDK packages for OTLP traces only. */
const INSTALLED = [
  '@opentelemetry/api',
  '@opentelemetry/semantic-conventions',
  '@opentelemetry/sdk-node',
  '@opentelemetry/resources',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
];

let app: string;

/**
 * An app folder with the built package copied into its node_modules (a copy, not a link: a link
 * would resolve to the repo, where every SDK package is installed) and only INSTALLED beside it.
 */
beforeAll(() => {
  if (!existsSync(`${root}dist/setup.js`)) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  app = mkdtempSync(join(tmpdir(), 'otel-tool-calls-app-'));
  const own = join(app, 'node_modules', 'otel-tool-calls');
  mkdirSync(own, { recursive: true });
  cpSync(join(root, 'dist'), join(own, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(own, 'package.json'));
  mkdirSync(join(app, 'node_modules', '@opentelemetry'));
  for (const name of INSTALLED) symlinkSync(join(root, 'node_modules', name), join(app, 'node_modules', name));
  writeFileSync(join(app, 'package.json'), '{ "type": "module" }');
}, 120_000);

afterAll(() => rmSync(app, { recursive: true, force: true }));

/** Starts and stops the telemetry in a fresh process of the app; prints `started` or the error's message. */
function start(options: object, format: 'esm' | 'cjs'): string {
  const body = `
    try {
      const telemetry = startToolCallTelemetry(${JSON.stringify({ serviceName: 'app', ...options })});
      await telemetry.shutdown();
      console.log('started');
    } catch (error) {
      console.log(error.message);
    }`;
  const script =
    format === 'esm'
      ? `import { startToolCallTelemetry } from 'otel-tool-calls/setup'; ${body}`
      : `const { startToolCallTelemetry } = require('otel-tool-calls/setup'); (async () => { ${body} })();`;
  const args = format === 'esm' ? ['--input-type=module', '-e', script] : ['--input-type=commonjs', '-e', script];
  return execFileSync(process.execPath, args, { cwd: app, encoding: 'utf8', timeout: 60_000 }).trim();
}

describe('otel-tool-calls/setup with only some SDK packages installed', () => {
  it.each(['esm', 'cjs'] as const)('starts with the packages its options use, and no others (%s)', (format) => {
    expect(start({ metrics: 'none', traces: 'none' }, format)).toBe('started');
  });

  it.each(['esm', 'cjs'] as const)(
    'names a missing package, what needs it, and the command that installs it (%s)',
    (format) => {
      const message = start({ metrics: 'prometheus', traces: 'none' }, format);
      expect(message).toContain(
        "startToolCallTelemetry (metrics: 'prometheus') needs the package @opentelemetry/exporter-prometheus, which is not installed",
      );
      expect(message).toMatch(/Install it with: npm install -E @opentelemetry\/exporter-prometheus@0\.\d+\.\d+$/);
    },
  );
});
