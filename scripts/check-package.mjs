// Checks the manifest's dependency rule, packs the package as npm would publish it (`prepack` builds
// it first), then runs publint and arethetypeswrong on the tarball.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// @opentelemetry/api is the one peer, and nothing else is declared: an optional peer (a framework, an
// SDK package) brings its own peer tree into the app's resolution, and an app on another SDK line got
// ERESOLVE. Frameworks and SDK packages are checked when they load instead (design.md §1).
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const declared = ['dependencies', 'optionalDependencies', 'peerDependenciesMeta', 'bundleDependencies']
  .filter((field) => manifest[field] !== undefined)
  .concat(Object.keys(manifest.peerDependencies ?? {}).filter((name) => name !== '@opentelemetry/api'));
if (declared.length > 0 || manifest.peerDependencies?.['@opentelemetry/api'] === undefined) {
  console.error(`package.json: @opentelemetry/api must be the one peer dependency; found ${declared.join(', ')}`);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-pack-'));
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
try {
  // no --json: the `prepack` build prints to stdout too
  run('npm', ['pack', '--pack-destination', dir]);
  const tarball = join(
    dir,
    readdirSync(dir).find((file) => file.endsWith('.tgz')),
  );
  run('npx', ['--no-install', 'publint', '--strict', tarball]);
  // node10 resolution predates `exports`: subpaths cannot resolve there, by design
  run('npx', ['--no-install', 'attw', tarball, '--profile', 'node16']);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
