/**
 * This package added to an existing app, as a new user does it: the app made first (the README's
 * install line for a Node line, or the frameworks a test run uses), then the package, packed as npm
 * would publish it, installed into it with npm's own resolution and no flag. Then a program observes
 * a tool call in the app.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTER_FRAMEWORKS } from '../package/framework-packages.js';
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

/**
 * Packs this checkout as npm would publish it, into `destination`; the tarball's path. `dist/` is built
 * first when missing; `--ignore-scripts`: the `prepack` build would clean `dist/` under the other test
 * files that run it (test/package/pack.test.ts checks `prepack` on a copy of the checkout).
 */
export function packPackage(destination: string): string {
  if (!existsSync(join(root, 'dist', 'setup.js')))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  return join(destination, packed[0].filename);
}

export interface InstalledApp {
  readonly dir: string;
  /** What npm printed when the package was added to the app. */
  readonly added: { readonly stdout: string; readonly stderr: string };
  /** Removes the app's folder, in the background: an app with every framework has 70,000 files. */
  remove(): void;
}

function removeInTheBackground(dir: string): void {
  spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * npm on the Node that runs the tests (Node 24 in the compatibility run: its engines checks and
 * packages), from the npm cache when it has them (CI has the registry; offline, the install fails
 * with npm's own message). npm's own resolution, no flag: a peer conflict (ERESOLVE) fails it as it
 * would for a user.
 */
async function npmInstall(dir: string, packages: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
  try {
    return await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], {
      cwd: dir,
      env,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr = '', message } = error as { stderr?: string; message: string };
    throw new Error(
      `npm install ${packages.join(' ')} failed in ${dir} (from the npm cache, else the registry: is it reachable?):\n` +
        (stderr.slice(-4000) || message),
    );
  }
}

/**
 * An app made with `packages` (`otel-tool-calls` left out), to which this package is then added alone,
 * as `npm install <the tarball>`: the step that failed with ERESOLVE while package.json had optional peers.
 */
export async function installIntoExistingApp(packages: readonly string[]): Promise<InstalledApp> {
  const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-install-'));
  const remove = () => removeInTheBackground(dir);
  try {
    const tarball = packPackage(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'existing-app', private: true, type: 'module' }));
    await npmInstall(
      dir,
      packages.filter((name) => name !== 'otel-tool-calls'),
    );
    const added = await npmInstall(dir, [tarball]);
    return { dir, added, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Runs an ES module program in the app with the Node that runs the tests; what it prints. */
export async function runInApp(app: InstalledApp, program: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  writeFileSync(join(app.dir, 'main.js'), program);
  const { stdout } = await run(process.execPath, ['main.js'], {
    cwd: app.dir,
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return stdout.trim();
}

/** One observed tool call, exported over OTLP (`OTEL_EXPORTER_OTLP_ENDPOINT`), metrics on Prometheus. */
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

/**
 * The README's Install for `nodeLine`, tested on the Node that runs the tests: the command pins
 * `@opentelemetry/api` to `apiVersion`; an app made with it takes this package with no flag, and the
 * quick-start program sends the span of a tool call to an OTLP receiver on 127.0.0.1.
 */
export function describeReadmeInstall(nodeLine: string, apiVersion: string): void {
  describe(`the README's Install on ${nodeLine}`, () => {
    let app: InstalledApp;
    beforeAll(async () => {
      app = await installIntoExistingApp(readmeInstallCommand(nodeLine));
    }, 630_000);
    afterAll(() => app?.remove());

    it('pins @opentelemetry/api to the line the SDK packages accept', () => {
      expect(readmeInstallCommand(nodeLine)).toContain(`@opentelemetry/api@${apiVersion}`);
    });

    it('an app made with its packages takes otel-tool-calls with no flag, and otel-tool-calls/setup sends the span of a tool call', async () => {
      expect(app.added.stderr).not.toMatch(/ERESOLVE|peer dep/i);
      const receiver = await startOtlpReceiver();
      try {
        const output = await runInApp(app, QUICK_START_PROGRAM, {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_BSP_SCHEDULE_DELAY: '10',
        });
        expect(output).toBe('sunny in Paris');
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

/**
 * Every adapter entry point whose framework is installed is imported, and the AI SDK adapter observes
 * a call of an AI SDK `tool()` (a listener of the app's own: no SDK is installed).
 */
const FRAMEWORKS_PROGRAM = `
import { tool } from 'ai';
import { z } from 'zod';
import { wrapTools } from 'otel-tool-calls/ai-sdk';

for (const subpath of JSON.parse(process.env.ADAPTERS)) await import('otel-tool-calls' + subpath.slice(1));
const seen = [];
const tools = wrapTools(
  { weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => 'sunny in ' + city }) },
  { afterCall: (_context, name, _input, result) => seen.push(name + ': ' + result) },
);
await tools.weather.execute({ city: 'Paris' }, { toolCallId: 'call_1', messages: [] });
console.log(seen.join('\\n'));
`;

/**
 * An app with `frameworks` (`name@version`: the frameworks of a test run, `ai` among them) takes this
 * package with no flag; then the entry point of each adapter whose framework it has loads, and a tool
 * call is observed.
 */
export function describeInstallBesideFrameworks(testRun: string, frameworks: readonly string[]): void {
  const names = frameworks.map((framework) => framework.slice(0, framework.lastIndexOf('@')));
  const adapters = Object.entries(ADAPTER_FRAMEWORKS)
    .filter(([, pattern]) => names.some((name) => pattern.test(name)))
    .map(([subpath]) => subpath);

  describe(`otel-tool-calls beside the frameworks of the ${testRun}`, () => {
    let app: InstalledApp;
    beforeAll(async () => {
      app = await installIntoExistingApp(frameworks);
    }, 630_000);
    afterAll(() => app?.remove());

    it(`an app with ${names.join(', ')} takes otel-tool-calls with no flag; ${adapters.join(', ')} load, and the AI SDK adapter observes a call`, async () => {
      expect(app.added.stderr).not.toMatch(/ERESOLVE|peer dep/i);
      const output = await runInApp(app, FRAMEWORKS_PROGRAM, { ADAPTERS: JSON.stringify(adapters) });
      expect(output).toBe('weather: sunny in Paris');
    }, 90_000);
  });
}
