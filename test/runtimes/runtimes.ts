import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const installed = `${root}runtimes/node_modules`;

/** One runtime of the matrix: its executable, the arguments that run a script, and how it preloads register. */
export interface Runtime {
  readonly name: string;
  readonly executable: string;
  /** Before the script: `run -A` for Deno. */
  readonly run: readonly string[];
  readonly preload: (how: 'import' | 'require') => string[];
}

const node = (name: string, executable: string): Runtime => ({
  name,
  executable,
  run: [],
  preload: (how) => [`--${how}`, 'otel-tool-calls/register'],
});

/** The runtimes, each an npm package in runtimes/ (`npm ci --prefix runtimes`); Node 20 is the machine's. */
export const RUNTIMES: readonly Runtime[] = [
  node(`Node ${process.versions.node}`, process.execPath),
  node('Node 22', `${installed}/node22/bin/node`),
  node('Node 24', `${installed}/node24/bin/node`),
  node('Node 26', `${installed}/node26/bin/node`),
  // Bun preloads either format with --preload
  {
    name: 'Bun',
    executable: `${installed}/.bin/bun`,
    run: [],
    preload: () => ['--preload', 'otel-tool-calls/register'],
  },
  // Deno's --preload takes a module specifier: a bare one is read as a path, `npm:` resolves the
  // package from node_modules (here by the package's self-reference), for an ESM or a CommonJS app
  {
    name: 'Deno',
    executable: `${installed}/.bin/deno`,
    run: ['run', '-A'],
    preload: () => ['run', '-A', '--preload', 'npm:otel-tool-calls/register'],
  },
];

/** Whether runtimes/ is installed; CI (REQUIRE_SERVICES=1) fails without it, elsewhere the matrix skips. */
export function runtimesInstalled(): boolean {
  const present =
    existsSync(`${installed}/.bin/bun`) &&
    existsSync(`${installed}/.bin/workerd`) &&
    existsSync(`${installed}/agents/package.json`);
  if (!present && process.env.REQUIRE_SERVICES === '1') {
    throw new Error('runtimes/ is not installed: run `npm ci --prefix runtimes`');
  }
  return present;
}
