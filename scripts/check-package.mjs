// Packs the package as npm would publish it, then runs publint and arethetypeswrong on the tarball.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-pack-'));
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
try {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { encoding: 'utf8' });
  const tarball = join(dir, JSON.parse(out)[0].filename);
  run('npx', ['--no-install', 'publint', '--strict', tarball]);
  // node10 resolution predates `exports`: subpaths cannot resolve there, by design
  run('npx', ['--no-install', 'attw', tarball, '--profile', 'node16']);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
