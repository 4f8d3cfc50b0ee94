import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';

// `npm run bench -- --only <group> --quick` as a user runs it, for the tests of one group alone.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** `node --import tsx bench/run.ts ...args` from the project's root, as `npm run bench -- ...args` runs it. */
export function runBench(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  return run(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], {
    cwd: root,
    timeout: 300_000,
    env: { ...process.env, ...env },
  });
}

/** A scratch folder for this test file's reports, removed after its tests. */
export function benchScratch(name: string): string {
  const scratch = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  return scratch;
}

/** `--only group --quick --out out`: what it printed, and the JSON report it wrote. */
export async function benchGroupAlone(group: string, out: string, env: NodeJS.ProcessEnv = {}) {
  const { stdout, stderr } = await runBench(['--only', group, '--quick', '--out', out], env);
  return { stdout, stderr, report: JSON.parse(readFileSync(out, 'utf8')) };
}
