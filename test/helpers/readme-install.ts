/**
 * The README's Install, done as a new user does it: the package packed as npm would publish it,
 * installed in an empty app folder with the README's own command for a Node line, then a program
 * that starts the telemetry with `otel-tool-calls/setup` and observes one tool call.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otlpAttributes, startOtlpReceiver } from './otlp-receiver.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The README's install command under the comment line that starts with `# <nodeLine>`. */
export function readmeInstallCommand(nodeLine: string): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = readme.split(`# ${nodeLine}`)[1];
  if (block === undefined) throw new Error(`README.md has no install command for "${nodeLine}"`);
  // the command's lines, up to a blank line or the end of the code block
  const lines = block.split('\n').slice(1);
  const end = lines.findIndex((line) => line.trim() === '' || line.startsWith('```'));
  const command = lines
    .slice(0, end === -1 ? undefined : end)
    .join(' ')
    .replace(/\\\s+/g, ' ');
  const words = command.trim().split(/\s+/);
  if (words[0] !== 'npm' || words[1] !== 'install') throw new Error(`not an npm install: ${command}`);
  return words.slice(2);
}

export interface InstalledApp {
  readonly dir: string;
  remove(): void;
}

/** An empty app with the README's packages installed, `otel-tool-calls` being the packed tarball. */
export async function installLikeTheReadme(nodeLine: string): Promise<InstalledApp> {
  if (!existsSync(join(root, 'dist', 'setup.js'))) execFileSync('npx', ['tsup'], { cwd: root, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-install-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }),
  );
  const tarball = join(dir, packed[0].filename);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'new-user-app', private: true, type: 'module' }));
  const packages = readmeInstallCommand(nodeLine).map((name) => (name === 'otel-tool-calls' ? tarball : name));
  // npm's own resolution, so that a peer conflict (ERESOLVE) fails the install as it would for a user
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], {
    cwd: dir,
    timeout: 300_000,
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What the app's program prints: one observed tool call, exported over OTLP to `otlpUrl`, metrics on Prometheus. */
export const QUICK_START_PROGRAM = `
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';

const telemetry = startToolCallTelemetry({ serviceName: 'new-user-app', prometheusPort: 0, prometheusHost: '127.0.0.1' });
const listener = new OpenTelemetryToolCallListener({ errorPolicy: 'report' });
const weather = ToolCallListeners.wrap(
  functionToolCallback({ name: 'weather' }, async ({ city }) => 'sunny in ' + city),
  listener,
);
console.log(await weather.call({ city: 'Paris' }));
await telemetry.shutdown();
`;

/** Runs the quick-start program in the app with `node` (the given binary), OTLP to `otlpUrl`. */
export async function runQuickStart(app: InstalledApp, otlpUrl: string, node = process.execPath): Promise<string> {
  writeFileSync(join(app.dir, 'main.js'), QUICK_START_PROGRAM);
  const { stdout } = await run(node, ['main.js'], {
    cwd: app.dir,
    timeout: 60_000,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_BSP_SCHEDULE_DELAY: '10' },
  });
  return stdout.trim();
}

/**
 * The README's Install for `nodeLine`, tested on the Node that runs the tests: the command pins
 * `@opentelemetry/api` to `apiVersion`, installs with no peer conflict, and the quick-start program
 * sends the span of a tool call to an OTLP receiver on 127.0.0.1.
 */
export function describeReadmeInstall(nodeLine: string, apiVersion: string): void {
  let app: InstalledApp;
  beforeAll(async () => {
    app = await installLikeTheReadme(nodeLine);
  }, 330_000);
  afterAll(() => app?.remove());

  describe(`the README's Install on ${nodeLine}`, () => {
    it('pins @opentelemetry/api to the line the SDK packages accept', () => {
      expect(readmeInstallCommand(nodeLine)).toContain(`@opentelemetry/api@${apiVersion}`);
    });

    it('installs with no peer conflict, and otel-tool-calls/setup sends the span of a tool call', async () => {
      const receiver = await startOtlpReceiver();
      try {
        expect(await runQuickStart(app, receiver.url)).toBe('sunny in Paris');
        const request = await receiver.waitFor('/v1/traces');
        const payload = JSON.parse(request.body.toString('utf8'));
        expect(otlpAttributes(payload.resourceSpans[0].resource.attributes)['service.name']).toBe('new-user-app');
        expect(payload.resourceSpans[0].scopeSpans[0].spans[0].name).toBe('execute_tool weather');
      } finally {
        await receiver.close();
      }
    }, 90_000);
  });
}
