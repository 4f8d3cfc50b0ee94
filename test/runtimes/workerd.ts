import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/workerd/', import.meta.url));
export const WORKERD = `${root}runtimes/node_modules/.bin/workerd`;
const COMPATIBILITY_DATE = '2026-11-01';

export interface RunningWorker {
  readonly url: string;
  /** What workerd printed (a worker's uncaught errors, its console). */
  readonly output: () => string;
  readonly stop: () => Promise<void>;
}

/**
 * Bundles the worker for workerd (esbuild, the `workerd`/`worker`/`browser` conditions, the
 * built `dist/` entry points by the package's self-reference) and serves it with workerd on
 * 127.0.0.1 (a port workerd picks, read from its control pipe), its outbound fetches allowed to
 * loopback only. With `nodejs_compat`, Node's built-ins are left to workerd.
 */
export async function startWorker(options: {
  readonly nodejsCompat: boolean;
  readonly bindings: Record<string, string>;
  /** The worker's file in the fixtures: `worker-nodejs-compat.mjs` or `worker.mjs` by `nodejsCompat`. */
  readonly entry?: string;
  /**
   * A streaming tail worker's file in the fixtures: Workers native tracing is on for the worker (its
   * spans reach the tail worker, and `isTraced` is true inside it), as when a deployed worker has
   * observability on. What the tail worker prints is in `output()`.
   */
  readonly streamingTail?: string;
}): Promise<RunningWorker> {
  const entry = options.entry ?? (options.nodejsCompat ? 'worker-nodejs-compat.mjs' : 'worker.mjs');
  const dir = join(tmpdir(), `otel-tool-calls-workerd-${process.pid}-${entry.replace(/\W/g, '-')}`);
  await mkdir(dir, { recursive: true });
  const bundle = (file: string, outfile: string) =>
    build({
      entryPoints: [`${fixtures}${file}`],
      outfile: join(dir, outfile),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker'],
      // the repo's tsconfig maps otel-tool-calls to src/: not here, the built package is what a worker bundles
      tsconfigRaw: {},
      // workerd's own modules; Cloudflare's agents package is installed with the runtimes
      external: ['cloudflare:*'],
      nodePaths: [`${root}runtimes/node_modules`],
      plugins: options.nodejsCompat ? [nodeBuiltinsLeftToWorkerd] : [],
      logLevel: 'error',
    });
  await bundle(entry, 'worker.js');
  if (options.streamingTail !== undefined) await bundle(options.streamingTail, 'tail.js');
  // the tail worker, when there is one: a service of its own, named in the worker's streamingTails
  const tail =
    options.streamingTail === undefined
      ? { service: '', worker: '', streams: '' }
      : {
          service: '\n    (name = "tail", worker = .tail),',
          worker: `const tail :Workerd.Worker = (
  modules = [(name = "tail.js", esModule = embed "tail.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
);
`,
          streams: '\n  streamingTails = ["tail"],',
        };
  const bindings = Object.entries(options.bindings)
    .map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`)
    .join(', ');
  await writeFile(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),${tail.service}
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = [${options.nodejsCompat ? '"nodejs_compat"' : '"no_nodejs_compat"'}],
  bindings = [${bindings}],
  globalOutbound = "loopback",${tail.streams}
);
${tail.worker}`,
  );
  const child = spawn(WORKERD, ['serve', join(dir, 'config.capnp'), '--control-fd=3'], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const port = await listeningPort(child, () => output);
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      await new Promise<void>((resolve) => {
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Node's built-ins, for workerd to give (`nodejs_compat`): an `import` stays one; a CommonJS
 * `require()` (`@opentelemetry/context-async-hooks` has no ES build) becomes a module importing it,
 * since an ES module worker has no `require`.
 */
const nodeBuiltinsLeftToWorkerd: Plugin = {
  name: 'node-builtins-left-to-workerd',
  setup(bundle) {
    const builtin = /^(node:)?(async_hooks|diagnostics_channel|events)$/;
    bundle.onResolve({ filter: builtin }, (args) =>
      args.kind === 'require-call'
        ? { path: args.path.replace(/^node:/, ''), namespace: 'node-require' }
        : { path: args.path, external: true },
    );
    bundle.onLoad({ filter: /.*/, namespace: 'node-require' }, (args) => ({
      contents: `import * as builtin from 'node:${args.path}'; module.exports = builtin;`,
      loader: 'js',
    }));
  },
};

/** workerd writes one JSON line per event to its control fd: `{"event":"listen","socket":"http","port":N}`. */
function listeningPort(child: ChildProcess, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let lines = '';
    (child.stdio[3] as Readable).on('data', (chunk) => {
      lines += chunk;
      for (const line of lines.split('\n').slice(0, -1)) {
        const event = JSON.parse(line) as { event: string; socket?: string; port?: number };
        if (event.event === 'listen' && event.socket === 'http') resolve(event.port as number);
      }
    });
    child.once('exit', (code) => reject(new Error(`workerd exited (${code}) before listening:\n${output()}`)));
  });
}
