import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * The peers' install (bench/peers/, its own package.json and lockfile, like compat/) and their suite's
 * bundle, for bench/run.ts. The package's own install does not grow: the peers and their dependencies
 * (Traceloop alone brings its NodeSDK, gRPC and Google Cloud exporters) live in bench/peers/node_modules.
 */
export type PeersStatus =
  | { readonly status: 'measured'; readonly versions: Record<string, string> }
  | { readonly status: 'skipped'; readonly reason: string };

interface PeersPackage {
  dependencies: Record<string, string>;
}

/** The pinned versions that are not (or not exactly) installed. */
function missing(dir: string): string[] {
  const { dependencies } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PeersPackage;
  return Object.entries(dependencies).flatMap(([name, version]) => {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    const installed = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }) : null;
    return installed?.version === version ? [] : [`${name}@${version}`];
  });
}

function npmCi(dir: string, log: (message: string) => void): Promise<string | null> {
  return new Promise((resolve) => {
    log(`▶ npm ci --prefix ${dir} (the peers are not installed)`);
    const child = spawn('npm', ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], {
      stdio: ['ignore', 2, 2],
    });
    child.on('error', (error) => resolve(`npm ci could not start: ${error.message}`));
    child.on('exit', (code, signal) => resolve(code === 0 ? null : `npm ci exited with ${signal ?? code}`));
  });
}

/**
 * Installs the peers from their lockfile when they are absent or stale (`npm ci --prefix bench/peers`).
 * `BENCH_PEERS=skip` skips them; so does a failed install, with the reason in the report.
 */
export async function preparePeers(dir: string, log: (message: string) => void): Promise<PeersStatus> {
  if (process.env.BENCH_PEERS === 'skip') return { status: 'skipped', reason: 'BENCH_PEERS=skip' };
  if (missing(dir).length > 0) {
    const failure = await npmCi(dir, log);
    if (failure) return { status: 'skipped', reason: `${failure}; run npm ci --prefix bench/peers` };
    const still = missing(dir);
    if (still.length > 0) return { status: 'skipped', reason: `not installed after npm ci: ${still.join(', ')}` };
  }
  const { dependencies } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PeersPackage;
  return { status: 'measured', versions: dependencies };
}

/**
 * One `@opentelemetry/api` for the whole process: the peers' imports of it (from bench/peers/node_modules)
 * are resolved as if written at the repo root, so they get the very copy the SDK world, the floor and
 * the listener use. Two copies of one API version would still meet through its global registry, but
 * then the peers would run through a second set of API objects (the root's is 1.9.0, as theirs). Their
 * other dependencies keep their own versions: none of those holds global state.
 */
function sharedApi(root: string): Plugin {
  return {
    name: 'bench:shared-opentelemetry-api',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^@opentelemetry\/api$/ }, async (args) => {
        if (args.pluginData === 'shared-api') return undefined;
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          resolveDir: root,
          pluginData: 'shared-api',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path };
      });
    },
  };
}

/** bench/peers/suite.ts as one JavaScript file, like the other suites (see compiledSuite in bench/run.ts). */
export async function bundlePeers(root: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [join(root, 'bench', 'peers', 'suite.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'bench', 'peers', 'tsconfig.json'),
    logLevel: 'warning',
    plugins: [sharedApi(root)],
    // the bundled CommonJS dependencies call require() for Node's own modules, and Traceloop's gRPC
    // dependency names proto files after __dirname (files it never loads here: no gRPC exporter is made)
    banner: {
      js:
        "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" +
        " const __filename = new URL(import.meta.url).pathname; const __dirname = __filename.replace(/\\/[^/]*$/, '');",
    },
  });
  return outfile;
}
