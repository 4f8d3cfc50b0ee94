import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
// a child process (npx, tsx, TypeScript transform) on a busy shared machine: a generous bound
const SPAWN_TIMEOUT = 120_000;
const root = fileURLToPath(new URL('../..', import.meta.url));
const source = (path: string) => join(root, 'src', path);

/**
 * A fresh Node process (vitest has long since loaded both frameworks) with a module resolve hook
 * that fails any import of `ai` or `@langchain/core`, then imports the given modules in order.
 * Apps that use neither framework must be able to import the package without having them installed.
 */
const PROBE = `
import { register } from 'node:module';
const hook = \`export async function resolve(specifier, context, next) {
  if (/^(ai|@langchain\\\\/core)(\\\\/|$)/.test(specifier)) throw new Error('framework package loaded: ' + specifier);
  return next(specifier, context);
}\`;
register('data:text/javascript,' + encodeURIComponent(hook));
for (const target of process.argv.slice(2)) {
  await import(target);
  console.log('imported ' + target);
}
`;

let probe: string;
let probeDir: string;

beforeAll(async () => {
  probeDir = await mkdtemp(join(tmpdir(), 'otel-tool-calls-imports-'));
  probe = join(probeDir, 'probe.mjs');
  await writeFile(probe, PROBE);
});

afterAll(async () => {
  await rm(probeDir, { recursive: true, force: true });
});

async function importInFreshProcess(...targets: string[]) {
  try {
    const { stdout } = await run('npx', ['tsx', probe, ...targets], { cwd: root, timeout: SPAWN_TIMEOUT });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: string }).stderr) };
  }
}

describe('framework packages are loaded only by the code that needs them', () => {
  it('the probe detects an import of the AI SDK (control)', { timeout: SPAWN_TIMEOUT }, async () => {
    const result = await importInFreshProcess('ai');
    expect(result.ok).toBe(false);
    expect(result.output).toContain('framework package loaded: ai');
  });

  it('importing otel-tool-calls, /ai-sdk and /langchain loads neither `ai` nor `@langchain/core`', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    // the adapters only need the frameworks' types: the tools they wrap bring the runtime along
    const targets = [source('index.ts'), source('adapters/ai-sdk/index.ts'), source('adapters/langchain/index.ts')];
    const result = await importInFreshProcess(...targets);
    expect(result.output).toBe(targets.map((target) => `imported ${target}\n`).join(''));
    expect(result.ok).toBe(true);
  });
});
