import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import { median } from './sampling.js';

/**
 * The startup group: one whole process per run (bench/startup/*: an AI SDK app with a mock model
 * and one tool call), timed by `/usr/bin/time` (user + system CPU of the process and its threads,
 * peak RSS), in rounds that run every case once, each round in another order (a rotation), so
 * that a burst of someone else's work lands in one round and not on one case. Each case's row is
 * the median over rounds; a ratio to the bare app is taken per round (the two processes of a round
 * ran seconds apart), and the targets read those per-round ratios pooled (bench/lib/band.ts).
 */
export interface StartupCase {
  readonly id: string;
  readonly label: string;
  /** node's arguments, the bundled files named by their key in `StartupFiles`. */
  readonly args: (files: StartupFiles) => string[];
}

export interface StartupFiles {
  readonly bare: string;
  readonly setup: string;
  readonly floor: string;
  readonly register: string;
  readonly hooksThread: string;
  readonly esmHook: string;
}

export const STARTUP_CASES: readonly StartupCase[] = [
  { id: 'bare', label: 'the app alone', args: (files) => [files.bare] },
  {
    id: 'register',
    label: 'node --import otel-tool-calls/register',
    args: (files) => ['--import', files.register, files.bare],
  },
  { id: 'setup', label: 'startToolCallTelemetry() + wrapTools in the app', args: (files) => [files.setup] },
  {
    id: 'floor',
    label:
      'floor: a hand-picked preload (trace + metrics SDKs in their ES module builds, OTLP/protobuf, context, instrumentation, ESM hook as register)',
    args: (files) => ['--import', files.floor, files.bare],
  },
  {
    id: 'esm-hook',
    label: "register's ESM hook alone (import-in-the-middle, its include list; no SDK)",
    args: (files) => ['--import', files.esmHook, files.bare],
  },
  {
    id: 'hooks-thread',
    label: 'a no-op module.register() hook alone: the hooks thread register needs on Node 20',
    args: (files) => ['--import', files.hooksThread, files.bare],
  },
  {
    id: 'peer',
    label: 'peer: node --import @opentelemetry/auto-instrumentations-node/register',
    args: (files) => ['--import', '@opentelemetry/auto-instrumentations-node/register', files.bare],
  },
];

export interface StartupRun {
  readonly cpuMs: number;
  readonly peakRssMb: number;
}

export interface StartupRow {
  readonly id: string;
  readonly label: string;
  /** Per round, in round order. */
  readonly runs: StartupRun[];
  readonly cpuMs: number;
  readonly peakRssMb: number;
  /** Per round: this case's CPU ÷ the bare app's of the same round (and the same for peak RSS). */
  readonly cpuRatios: number[];
  readonly rssRatios: number[];
  readonly cpuVsBare: number;
  readonly rssVsBare: number;
}

export interface StartupResult {
  readonly rounds: number;
  readonly rows: StartupRow[];
}

export const TIME = '/usr/bin/time';

/**
 * Bundles the startup group's files as tsup bundles the package (each package left to Node to
 * load, as an app's node_modules has it) into a folder inside node_modules, so that what they
 * resolve (the SDK packages, the ESM loader hook) resolves as from an app of this repo.
 */
export async function bundleStartup(root: string): Promise<StartupFiles> {
  const outdir = join(root, 'node_modules', '.cache', 'otel-tool-calls-bench', 'startup');
  mkdirSync(outdir, { recursive: true });
  const entries = {
    bare: join(root, 'bench', 'startup', 'bare.ts'),
    setup: join(root, 'bench', 'startup', 'setup.ts'),
    floor: join(root, 'bench', 'startup', 'floor.ts'),
    register: join(root, 'src', 'register.ts'),
    hooksThread: join(root, 'bench', 'startup', 'hooks-thread.ts'),
    esmHook: join(root, 'bench', 'startup', 'esm-hook.ts'),
    'no-op-hook': join(root, 'bench', 'startup', 'no-op-hook.ts'),
  };
  await build({
    entryPoints: entries,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return Object.fromEntries(
    Object.keys(entries).map((key) => [key, join(outdir, `${key}.mjs`)]),
  ) as unknown as StartupFiles;
}

/** An OTLP/HTTP receiver on 127.0.0.1 that takes everything (an empty success response, as a collector's). */
async function startSink(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const json = request.headers['content-type']?.includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One run of one case: `/usr/bin/time -f '%U %S %M' node …`; the app must print its answer. */
function runOnce(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<StartupRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TIME, ['-f', 'TIME %U %S %M', process.execPath, ...args], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stderr
        .split('\n')
        .reverse()
        .find((candidate) => candidate.startsWith('TIME '));
      if (code !== 0 || line === undefined || !stdout.includes('celsius')) {
        reject(new Error(`startup run ${args.join(' ')} failed (${code}): ${stdout}${stderr}`));
        return;
      }
      const [user, system, rssKb] = line.slice(5).split(' ').map(Number) as [number, number, number];
      resolve({ cpuMs: (user + system) * 1000, peakRssMb: rssKb / 1024 });
    });
  });
}

export async function measureStartup(
  root: string,
  rounds: number,
  log: (message: string) => void,
): Promise<StartupResult> {
  if (!existsSync(TIME)) {
    throw new Error(`the startup group needs ${TIME} (GNU time: apt-get install -y time)`);
  }
  const files = await bundleStartup(root);
  const sink = await startSink();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of Object.keys(env)) if (key.startsWith('OTEL_')) delete env[key];
    // what a new user sets: a service name and where the collector is; the rest as the defaults are
    Object.assign(env, { OTEL_SERVICE_NAME: 'startup-bench', OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
    delete env.NODE_OPTIONS;
    const runs = new Map<string, StartupRun[]>(STARTUP_CASES.map((c) => [c.id, []]));
    // one unmeasured run of each first: the file system's cache, as after an install
    for (const c of STARTUP_CASES) await runOnce(root, c.args(files), env);
    for (let round = 0; round < rounds; round++) {
      log(`  startup round ${round + 1}/${rounds}`);
      for (let i = 0; i < STARTUP_CASES.length; i++) {
        const c = STARTUP_CASES[(round + i) % STARTUP_CASES.length] as StartupCase;
        runs.get(c.id)?.push(await runOnce(root, c.args(files), env));
      }
    }
    const bare = runs.get('bare') as StartupRun[];
    const rows = STARTUP_CASES.map((c): StartupRow => {
      const own = runs.get(c.id) as StartupRun[];
      const cpuRatios = own.map((run, round) => run.cpuMs / (bare[round] as StartupRun).cpuMs);
      const rssRatios = own.map((run, round) => run.peakRssMb / (bare[round] as StartupRun).peakRssMb);
      return {
        id: c.id,
        label: c.label,
        runs: own,
        cpuMs: median(own.map((run) => run.cpuMs)),
        peakRssMb: median(own.map((run) => run.peakRssMb)),
        cpuRatios,
        rssRatios,
        cpuVsBare: median(cpuRatios),
        rssVsBare: median(rssRatios),
      };
    });
    return { rounds, rows };
  } finally {
    await sink.close();
  }
}
