/**
 * `npm pack` of a fresh clone, the step a user takes to install this package from the repository
 * before it is on the registry: the checkout's files (as git has them, no dist/), packed as they are.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: unknown };

/** Every file path that package.json `exports` names (`./dist/index.js`, ...). */
function exportedFiles(exportsField: unknown): string[] {
  if (typeof exportsField === 'string') return exportsField.startsWith('./dist/') ? [exportsField.slice(2)] : [];
  if (exportsField === null || typeof exportsField !== 'object') return [];
  return Object.values(exportsField).flatMap(exportedFiles);
}

let clone: string;
let packed: string[];

beforeAll(async () => {
  clone = mkdtempSync(join(tmpdir(), 'otel-tool-calls-clone-'));
  // the files a clone has: tracked, and new ones not ignored (this checkout's own, not yet committed)
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(root, file), join(clone, file));
  }
  // `npm ci` in the clone, without installing 1,000 packages again
  symlinkSync(realpathSync(join(root, 'node_modules')), join(clone, 'node_modules'));
  // the build takes a minute, many more on a busy machine; its output goes to stdout, so no --json
  await run('npm', ['pack', '--pack-destination', clone], {
    cwd: clone,
    timeout: 900_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = readdirSync(clone).find((file) => file.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack made no tarball');
  packed = execFileSync('tar', ['-tzf', join(clone, tarball)], { encoding: 'utf8' })
    .split('\n')
    .map((file) => file.replace(/^package\//, ''));
}, 930_000);

afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('npm pack of a fresh clone', () => {
  it('builds dist/ first (prepack): the tarball has every file package.json exports', () => {
    const expected = exportedFiles(manifest.exports);
    expect(expected.length).toBeGreaterThan(30);
    expect(packed.filter((file) => expected.includes(file)).sort()).toEqual([...new Set(expected)].sort());
  });
});
