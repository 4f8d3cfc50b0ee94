import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
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
 * ran seconds apart), and the targets read those per-round ratios pooled (bench/lib/band.ts). The
 * group runs on this Node and on each Node of `runtimes/` that is installed (22, 24, 26): what a
 * preload costs differs between them (Node 20 has only the off-thread module hooks).
 */
export interface StartupCase {
  readonly id: string;
  readonly label: string;
  /** node's arguments, the bundled files named by their key in `StartupFiles`. */
  readonly args: (files: StartupFiles) => string[];
  /** Whether the run exports the tool call's `execute_tool` span: checked on every run, so a case that stopped observing fails the group. */
  readonly observes: boolean;
  /** Variables the case sets over the group's (the metrics paths' `OTEL_METRICS_EXPORTER`, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * How the run's tool metrics leave it, checked on every run when set: `push`, it sent them over OTLP
   * (the call's duration histogram reached the sink); `pull`, it did not (its `/metrics` served them).
   */
  readonly metrics?: 'push' | 'pull';
}

export interface StartupFiles {
  readonly bare: string;
  readonly setup: string;
  readonly floor: string;
  readonly floorBundled: string;
  readonly register: string;
  readonly hooksThread: string;
  readonly esmHook: string;
}

export const STARTUP_CASES: readonly StartupCase[] = [
  { id: 'bare', label: 'the app alone', args: (files) => [files.bare], observes: false },
  {
    id: 'register',
    label: 'node --import otel-tool-calls/register',
    args: (files) => ['--import', files.register, files.bare],
    observes: true,
  },
  {
    id: 'setup',
    label: 'startToolCallTelemetry() + wrapTools in the app',
    args: (files) => [files.setup],
    observes: true,
  },
  {
    id: 'floor',
    label:
      'floor: a hand-picked preload (trace + metrics SDKs in their ES module builds, OTLP/protobuf, context, instrumentation, ESM hook as register)',
    args: (files) => ['--import', files.floor, files.bare],
    observes: true,
  },
  {
    id: 'floor-bundled',
    label:
      'the floor with its SDK packages bundled into its file: what a copy of the SDK inside the package would cost',
    args: (files) => ['--import', files.floorBundled, files.bare],
    observes: true,
  },
  {
    id: 'esm-hook',
    label: "register's ESM hook alone (import-in-the-middle, its include list; no SDK)",
    args: (files) => ['--import', files.esmHook, files.bare],
    observes: false,
  },
  {
    id: 'hooks-thread',
    label: 'a no-op module.register() hook alone: the hooks thread register needs on Node 20',
    args: (files) => ['--import', files.hooksThread, files.bare],
    observes: false,
  },
  {
    id: 'peer',
    label: 'peer: node --import @opentelemetry/auto-instrumentations-node/register',
    args: (files) => ['--import', '@opentelemetry/auto-instrumentations-node/register', files.bare],
    // it has no instrumentation for AI SDK tool calls
    observes: false,
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

/** A Node the group runs on: this one, or one of `runtimes/`. */
export interface StartupRuntime {
  /** `node20`, `node24`, ...: the targets' ids end with it. */
  readonly id: string;
  readonly version: string;
  readonly executable: string;
}

export interface StartupRuntimeResult {
  readonly runtime: StartupRuntime;
  readonly rows: StartupRow[];
}

export interface StartupResult {
  readonly rounds: number;
  /** This Node first, then the others in version order. */
  readonly runtimes: StartupRuntimeResult[];
}

/** This Node, and each Node of `runtimes/` (`npm ci --prefix runtimes`) that is installed and is another major. */
export function startupRuntimes(root: string): StartupRuntime[] {
  const major = (version: string) => version.replace(/^v/, '').split('.')[0] as string;
  const own: StartupRuntime = {
    id: `node${major(process.version)}`,
    version: process.version.replace(/^v/, ''),
    executable: process.execPath,
  };
  const others = ['22', '24', '26']
    .filter((candidate) => candidate !== major(process.version))
    .map((candidate) => join(root, 'runtimes', 'node_modules', `node${candidate}`))
    .filter((folder) => existsSync(join(folder, 'bin', 'node')))
    .map((folder): StartupRuntime => {
      const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
      return { id: `node${major(version)}`, version, executable: join(folder, 'bin', 'node') };
    });
  return [own, ...others];
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
  // the SDK's packages inside the file, as a package that shipped its own copy would have them;
  // import-in-the-middle (its loader hook and the registry the instrumentation talks to) and the API
  // (one per process, shared with the app) stay the installed ones, and so does the app's framework
  await build({
    entryPoints: { floorBundled: join(root, 'bench', 'startup', 'floor.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    external: ['@opentelemetry/api', 'import-in-the-middle', 'require-in-the-middle', 'ai', 'zod'],
    // the packages' ES module builds, as an app importing them gets
    mainFields: ['module', 'main'],
    // for the CommonJS dependencies the bundle inlines (they require() Node's modules)
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return Object.fromEntries(
    [...Object.keys(entries), 'floorBundled'].map((key) => [key, join(outdir, `${key}.mjs`)]),
  ) as unknown as StartupFiles;
}

/** The OTLP receiver the runs export to: its address, and what it has received since it was last asked. */
interface Sink {
  readonly url: string;
  /**
   * The requests since the last call whose body names the tool call's `execute_tool` span, and those
   * that name its duration histogram; resets both.
   */
  takeRequests(): { toolSpans: number; toolMetrics: number };
  close(): Promise<void>;
}

/** The span name the tool call exports, as bytes of either OTLP encoding (protobuf keeps strings as UTF-8). */
const TOOL_SPAN = Buffer.from('execute_tool getWeather');
/** The tool call's duration histogram, the same way. */
const TOOL_METRIC = Buffer.from('gen_ai.execute_tool.duration');

/**
 * An OTLP/HTTP receiver on 127.0.0.1 that takes everything (an empty success response, as a
 * collector's) and counts the requests that carry the tool call's span. The runs are one at a
 * time, and each flushes before it exits, so what arrives during a run is that run's.
 */
async function startSink(): Promise<Sink> {
  let toolSpans = 0;
  let toolMetrics = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.includes(TOOL_SPAN)) toolSpans++;
      if (body.includes(TOOL_METRIC)) toolMetrics++;
      const json = request.headers['content-type']?.includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    takeRequests: () => {
      const taken = { toolSpans, toolMetrics };
      toolSpans = 0;
      toolMetrics = 0;
      return taken;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One run of one case: `/usr/bin/time -f '%U %S %M' node …`; the app must print its answer. */
function runOnce(root: string, node: string, args: string[], env: NodeJS.ProcessEnv): Promise<StartupRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TIME, ['-f', 'TIME %U %S %M', node, ...args], { cwd: root, env });
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
        reject(new Error(`startup run ${node} ${args.join(' ')} failed (${code}): ${stdout}${stderr}`));
        return;
      }
      const [user, system, rssKb] = line.slice(5).split(' ').map(Number) as [number, number, number];
      resolve({ cpuMs: (user + system) * 1000, peakRssMb: rssKb / 1024 });
    });
  });
}

/**
 * The group on each runtime in turn, `rounds` rounds each; `warmUp`: one unmeasured run of each case
 * first (the file system's cache, as after an install). `cases`: the startup group's by default; others
 * (the metrics paths') are measured the same way, and must have a `bare` case, the per-round reference.
 */
export async function measureStartup(
  root: string,
  options: {
    readonly rounds: number;
    readonly runtimes: readonly StartupRuntime[];
    readonly warmUp: boolean;
    readonly cases?: readonly StartupCase[];
  },
  log: (message: string) => void,
): Promise<StartupResult> {
  const cases = options.cases ?? STARTUP_CASES;
  if (!cases.some((c) => c.id === 'bare')) throw new Error('measureStartup: the cases need a bare one');
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
    const results: StartupRuntimeResult[] = [];
    for (const runtime of options.runtimes) {
      const run = async (c: StartupCase) => {
        sink.takeRequests();
        const measured = await runOnce(root, runtime.executable, c.args(files), { ...env, ...c.env });
        const received = sink.takeRequests();
        const exported = received.toolSpans > 0;
        if (exported !== c.observes) {
          throw new Error(
            `startup case ${c.id} on Node ${runtime.version} ${exported ? 'exported' : 'did not export'} the tool call's span`,
          );
        }
        const pushed = received.toolMetrics > 0;
        if (c.metrics !== undefined && pushed !== (c.metrics === 'push')) {
          throw new Error(
            `startup case ${c.id} on Node ${runtime.version} ${pushed ? 'pushed' : 'did not push'} the tool call's metrics over OTLP`,
          );
        }
        return measured;
      };
      const runs = new Map<string, StartupRun[]>(cases.map((c) => [c.id, []]));
      if (options.warmUp) for (const c of cases) await run(c);
      for (let round = 0; round < options.rounds; round++) {
        log(`  startup, Node ${runtime.version}: round ${round + 1}/${options.rounds}`);
        for (let i = 0; i < cases.length; i++) {
          const c = cases[(round + i) % cases.length] as StartupCase;
          runs.get(c.id)?.push(await run(c));
        }
      }
      results.push({ runtime, rows: rowsOf(cases, runs) });
    }
    return { rounds: options.rounds, runtimes: results };
  } finally {
    await sink.close();
  }
}

/** Each case's row: medians over the rounds, and its per-round ratios to the bare app's run of the round. */
function rowsOf(cases: readonly StartupCase[], runs: ReadonlyMap<string, StartupRun[]>): StartupRow[] {
  const bare = runs.get('bare') as StartupRun[];
  return cases.map((c): StartupRow => {
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
}
