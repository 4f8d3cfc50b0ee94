import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/*
 * The package as a child process loads it, and the fixture apps: free of vitest's APIs, for the
 * compatibility run's global setup (compat/sdk3-app.ts) too.
 */

export const root = fileURLToPath(new URL('../..', import.meta.url));
/** The fixture apps, in the repo. */
export const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The built package, as a child process loads it (`otel-tool-calls/register` resolves to dist/ by self-reference). */
export function builtPackageExists(): boolean {
  return existsSync(`${root}dist/register.js`) && existsSync(`${root}dist/register.cjs`);
}

/** Builds the package (`npm run build`) if dist/ is missing, for a test file's `beforeAll` (give it 120 s). */
export function buildPackageIfMissing(): void {
  if (!builtPackageExists()) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
}
