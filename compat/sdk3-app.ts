import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildPackageIfMissing, fixtures, root } from '../test/register/built-package.js';

/**
 * The zero-code suite's apps on the OpenTelemetry JS SDK 3.x line: a folder outside the repo, with
 * compat/node_modules as its node_modules (linked file by file, not copied: the same disk), the built
 * package in it, and test/register/fixtures at the same path. Outside the repo, because Node resolves a package a
 * folder lacks in the folders above it: inside, the root node_modules (the SDK 2.x line) answered
 * for what the 3.x line no longer installs (`@opentelemetry/api-logs`), and hid that register needed it.
 */
export default function setup(project: TestProject): () => void {
  buildPackageIfMissing();
  const app = mkdtempSync(join(tmpdir(), 'otel-tool-calls-sdk3-app-'));
  const modules = realpathSync(fileURLToPath(new URL('./node_modules', import.meta.url)));
  try {
    // hard links: instant where /tmp is the repo's disk; a copy where it is not
    execFileSync('cp', ['-al', modules, join(app, 'node_modules')], { stdio: 'ignore' });
  } catch {
    rmSync(join(app, 'node_modules'), { recursive: true, force: true });
    cpSync(modules, join(app, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
  const own = join(app, 'node_modules', 'otel-tool-calls');
  rmSync(own, { recursive: true, force: true });
  mkdirSync(own);
  cpSync(join(root, 'dist'), join(own, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(own, 'package.json'));
  // where they are in the repo: the fixtures import test/helpers' fake APIs by relative paths
  cpSync(fixtures, join(app, 'test', 'register', 'fixtures'), { recursive: true });
  // and the helpers they import (the fake APIs, the Claude query driver): every .mjs of test/helpers
  cpSync(join(root, 'test', 'helpers'), join(app, 'test', 'helpers'), {
    recursive: true,
    filter: (source) => source.endsWith('.mjs') || statSync(source).isDirectory(),
  });
  writeFileSync(join(app, 'package.json'), '{ "type": "module" }');
  project.provide('sdk3App', app);
  return () => rmSync(app, { recursive: true, force: true });
}
