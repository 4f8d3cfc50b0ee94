/**
 * `npm run bench`: the overhead of the tool-call decorator and of the OpenTelemetry listener,
 * against the bare tool and against hand-written OpenTelemetry code (the floor). See BENCHMARKS.md.
 *
 *   node --import tsx bench/run.ts [--quick] [--out <file.json>]
 *
 * Each world runs in a child process of its own (bench/suite.ts bundled by esbuild, and
 * bench/memory.ts under tsx, with --expose-gc); this process only gathers their results, prints one table with the targets, and
 * writes it as JSON (bench/results/latest.json; bench/results/quick.tmp.json with --quick).
 * --quick runs every case a couple of times and 20,000 calls for the memory check: it proves the
 * suite works, its numbers mean nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { FULL_SETTINGS, type Measured, QUICK_SETTINGS } from './lib/measure.js';
import { compare, evaluateTargets, formatMemory, formatTable, formatTargets, type MemoryResult } from './lib/report.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } },
});
const quick = values.quick || process.env.BENCH_QUICK === '1';
const out = values.out ?? join(root, 'bench', 'results', quick ? 'quick.tmp.json' : 'latest.json');
const memoryCalls = quick ? 20_000 : 1_000_000;
const scratch = mkdtempSync(join(tmpdir(), 'otel-tool-calls-bench-'));

const log = (message: string) => process.stderr.write(`${message}\n`);

/** Runs a child node process; its output goes to our stderr, so that stdout is the report alone. */
function node(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', ...args], { cwd: root, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited with ${signal ?? code}`)),
    );
  });
}

async function suite(name: string, runner: string[]): Promise<Measured[]> {
  const file = join(scratch, `${name}.json`);
  log(`▶ ${name}`);
  await node([...runner, '--suite', name, '--out', file, ...(quick ? ['--quick'] : [])]);
  return (JSON.parse(readFileSync(file, 'utf8')) as { rows: Measured[] }).rows;
}

/**
 * The suite as plain JavaScript, bundled once by esbuild as tsup bundles the package (no
 * `keepNames`): what is timed is the code users run. Under tsx every named closure created per call
 * also pays a `__name()` call (tsx compiles with `keepNames`); the loader rows show that cost.
 */
async function compiledSuite(): Promise<string> {
  const outfile = join(scratch, 'suite.mjs');
  await build({
    entryPoints: [join(root, 'bench', 'suite.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
    // the bundled CommonJS dependencies call require() for Node's own modules
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

const started = Date.now();
const loadBefore = loadavg();
try {
  const compiled = [await compiledSuite()];
  const measured = [
    ...(await suite('no-sdk', compiled)),
    ...(await suite('sdk', compiled)),
    ...(await suite('capture', compiled)),
    ...(await suite('loader-tsx', ['--import', 'tsx', 'bench/suite.ts'])),
    ...(await suite('loader-compiled', compiled)),
  ];
  log('▶ memory');
  const memoryFile = join(scratch, 'memory.json');
  await node([
    ...['--import', 'tsx', 'bench/memory.ts', '--out', memoryFile],
    ...['--calls', String(memoryCalls), '--shutdown-wait', quick ? '1000' : '30000'],
  ]);
  const memory = JSON.parse(readFileSync(memoryFile, 'utf8')) as MemoryResult;

  const rows = compare(measured);
  const targets = evaluateTargets(rows, memory);
  const machine = {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    platform: `${process.platform} ${process.arch}`,
    loadAverageBefore: loadBefore.map((load) => Number(load.toFixed(2))),
    loadAverageAfter: loadavg().map((load) => Number(load.toFixed(2))),
  };
  const report = {
    generatedAt: new Date().toISOString(),
    quick,
    command: `node --import tsx bench/run.ts${quick ? ' --quick' : ''}`,
    elapsedSeconds: Math.round((Date.now() - started) / 1000),
    machine,
    settings: quick ? QUICK_SETTINGS : FULL_SETTINGS,
    rows,
    memory,
    targets,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

  const notice = quick ? ' (QUICK MODE: every case ran a couple of times; these numbers are not measurements)' : '';
  console.log(`otel-tool-calls benchmark${notice}`);
  console.log(
    `node ${machine.node}, ${machine.cpu}, ${machine.cores} cores, load average ${machine.loadAverageBefore[0]} → ${machine.loadAverageAfter[0]}; ` +
      `median of ${report.settings.rounds} rounds; ${report.elapsedSeconds} s\n`,
  );
  console.log(formatTable(rows));
  console.log(`\n${formatMemory(memory)}`);
  console.log(`\nTargets${quick ? ' (quick mode: not judged on these numbers)' : ''}:\n${formatTargets(targets)}`);
  console.log(`\nJSON: ${out}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
