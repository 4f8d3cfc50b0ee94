/**
 * `npm run bench`: the overhead of the tool-call decorator and of the OpenTelemetry listener,
 * against the bare tool, against hand-written OpenTelemetry code (the floor) and against the peers
 * (OpenInference, Traceloop, Langfuse), with the bytes each allocates per call. See BENCHMARKS.md.
 *
 *   node --import tsx bench/run.ts [--quick] [--only startup|mcp|signals|metrics-paths|collector] [--out <file.json>]
 *
 * Each world runs in a child process of its own (bench/suite.ts and bench/peers/suite.ts bundled by
 * esbuild; bench/memory.ts and bench/shared-times.ts under tsx; all with --expose-gc), once timed and,
 * for the main worlds, once more for the allocation per call; this process only gathers their
 * results, prints one table with the targets (judged on comparisons measured in pairs of batches,
 * bench/lib/paired.ts), and writes it as JSON (bench/results/latest.json;
 * bench/results/quick.tmp.json with --quick). The peers are installed in bench/peers/ (npm ci when
 * absent, see bench/lib/peers.ts); without them their rows are skipped and the report says why.
 * --quick runs every case a couple of times and 20,000 calls for the memory check: it proves the
 * suite works, its numbers mean nothing. --only startup runs the startup group alone, on every
 * installed Node (its table and targets; bench/results/startup.tmp.json); --only mcp the MCP round
 * trip alone (its table and target; bench/results/mcp.tmp.json); --only signals the agent signals'
 * cases alone, in processes of their own (their table, comparisons and targets;
 * bench/results/signals.tmp.json: a quick look, the full run's figures are the ones reported);
 * --only metrics-paths pushing the tool metrics over OTLP against serving them at /metrics, per call
 * and at start (bench/lib/metrics-paths.ts; bench/results/metrics-paths.tmp.json); --only collector the
 * scale-out tier's capacity (bench/collector.ts: spans per second with no loss of a gateway and of the
 * tier, the load balancer's latency, memory per trace awaiting its decision, the capacity plan;
 * bench/results/collector.tmp.json), only alone, from the collector scripts/services.sh builds (skipped,
 * with the reason, without it).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { builtCollector } from './collector/collectors.js';
import type { AllocationRow } from './lib/allocation.js';
import { bundleForNode } from './lib/bundle.js';
import type { CollectorResult } from './lib/collector.js';
import {
  formatAllocations,
  formatCollector,
  formatInFlight,
  formatMcpRoundTrip,
  formatMemory,
  formatMetricsPaths,
  formatPaired,
  formatPeers,
  formatPooledValues,
  formatRepeatTable,
  formatSharedTimes,
  formatStartup,
  formatTable,
  formatTargets,
} from './lib/format.js';
import { freePort } from './lib/free-port.js';
import { FULL_SETTINGS, type Measured, QUICK_SETTINGS } from './lib/measure.js';
import {
  type MetricsPathsAllocated,
  type MetricsPathsResult,
  type MetricsPathsTimed,
  metricsPathStartupCases,
  summarizeMetricsPaths,
} from './lib/metrics-paths.js';
import type { PairedResult } from './lib/paired.js';
import { bundlePeers, type PeersStatus, preparePeers } from './lib/peers.js';
import { compare, compareAllocations } from './lib/rows.js';
import { measureStartup, type StartupRuntime, startupRuntimes } from './lib/startup.js';
import {
  evaluateMcpTarget,
  evaluateRepeatTableTarget,
  evaluateSignalTargets,
  evaluateStartupTargets,
  evaluateTargets,
  type InFlightResult,
  type McpRoundTripResult,
  type MemoryResult,
  type RepeatTableResult,
  type SharedTimesResult,
  type Target,
} from './lib/targets.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, out: { type: 'string' } },
});
const quick = values.quick || process.env.BENCH_QUICK === '1';
/** The groups that run alone (`--only`), each with the JSON it writes by default. */
const GROUPS_ALONE: Readonly<Record<string, string>> = {
  startup: 'startup.tmp.json',
  mcp: 'mcp.tmp.json',
  signals: 'signals.tmp.json',
  'metrics-paths': 'metrics-paths.tmp.json',
  collector: 'collector.tmp.json',
};
if (values.only !== undefined && !Object.hasOwn(GROUPS_ALONE, values.only)) {
  throw new Error(
    `--only takes one group: ${Object.keys(GROUPS_ALONE).join(', ')} (not ${JSON.stringify(values.only)})`,
  );
}
const only = values.only;
const out =
  values.out ??
  join(
    root,
    'bench',
    'results',
    only !== undefined ? (GROUPS_ALONE[only] as string) : quick ? 'quick.tmp.json' : 'latest.json',
  );
const memoryCalls = quick ? 20_000 : 1_000_000;
/**
 * Processes that measure each target's comparisons (the timed world's own, then that many less one
 * of their own, `--mode paired`): a timed target is judged on their medians by the band rule
 * (bench/lib/band.ts, BENCHMARKS.md "Targets").
 */
const targetProcesses = quick ? 2 : 5;
/**
 * The startup group (bench/lib/startup.ts): rounds that run every case once, a whole process each, on
 * each installed Node; --quick skips the unmeasured first run of each case.
 */
const startupSettings = { rounds: quick ? 1 : 12, runtimes: startupRuntimes(root), warmUp: !quick };
/**
 * The MCP group's rounds (one batch of 200 round trips per world each): its target is judged on
 * their pooled ratios. 400 by default: the 95 % interval of 30 rounds spans about ±0.1 around a ratio
 * of about 1.05, so it could not tell a 1.10× limit met; 400 narrow it to about ±0.03 (BENCHMARKS.md).
 * BENCH_MCP_ROUNDS sets another count; the servers are started anew as often as the rounds ask
 * (bench/mcp-round-trip.ts).
 */
const mcpRounds = Number(process.env.BENCH_MCP_ROUNDS ?? 400);
/**
 * The metrics paths group's processes per call (each `rounds` rounds of a batch of `calls` calls and one
 * export per path, after `warmup` batches of each): its intervals pool the rounds of several processes,
 * as the MCP group's do, since runs of the same code differ more between processes than within one.
 */
const metricsPathsSettings = quick
  ? { processes: 1, perProcess: ['--calls', '500', '--rounds', '2', '--warmup', '1'] }
  : { processes: 3, perProcess: ['--calls', '10000', '--rounds', '30', '--warmup', '3'] };
const scratch = mkdtempSync(join(tmpdir(), 'otel-tool-calls-bench-'));

const log = (message: string) => process.stderr.write(`${message}\n`);

/**
 * The allocation mode's young generation: large enough that a window of calls runs without a
 * collection (bench/lib/allocation.ts). Only those processes get it: it changes the GC's rhythm,
 * and so the times, of every case.
 */
const ALLOCATION_FLAGS = ['--min-semi-space-size=64', '--max-semi-space-size=64'];

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

interface SuiteOutput {
  rows?: Measured[];
  paired?: PairedResult[];
  allocations?: AllocationRow[];
  exportedSpans?: number;
  exportedSpansByScope?: Record<string, number>;
}

async function runSuite(name: string, runner: string[], mode: 'time' | 'paired' | 'allocation'): Promise<SuiteOutput> {
  const file = join(scratch, `${name}-${mode}.json`);
  const what = {
    time: '',
    paired: ' (the targets’ comparisons again, in a process of their own)',
    allocation: ' (bytes allocated per call)',
  };
  log(`▶ ${name}${what[mode]}`);
  const flags = mode === 'allocation' ? ALLOCATION_FLAGS : [];
  await node([...flags, ...runner, '--suite', name, '--out', file, '--mode', mode, ...(quick ? ['--quick'] : [])]);
  return JSON.parse(readFileSync(file, 'utf8')) as SuiteOutput;
}

/** The target comparisons of one more process of a world (`--mode paired`). */
async function pairedOnly(name: string, runner: string[]): Promise<PairedResult[]> {
  return (await runSuite(name, runner, 'paired')).paired ?? [];
}

/** The rows of one timed world; its paired comparisons go to `paired`. */
async function suite(name: string, runner: string[], paired: PairedResult[]): Promise<Measured[]> {
  const output = await runSuite(name, runner, 'time');
  paired.push(...(output.paired ?? []));
  return output.rows ?? [];
}

async function allocations(name: string, runner: string[]): Promise<AllocationRow[]> {
  return (await runSuite(name, runner, 'allocation')).allocations ?? [];
}

/**
 * The peers' process: installed (or skipped, with the reason), bundled, timed and weighed. A failure
 * of the peers' own process skips their rows with its error, rather than losing the whole run.
 */
async function peers(): Promise<{
  status: PeersStatus;
  rows: Measured[];
  paired: PairedResult[];
  allocations: AllocationRow[];
  spans?: Record<string, number>;
}> {
  const prepared = await preparePeers(join(root, 'bench', 'peers'), log);
  if (prepared.status === 'skipped') {
    log(`▶ peers skipped: ${prepared.reason}`);
    return { status: prepared, rows: [], paired: [], allocations: [] };
  }
  try {
    const runner = [await bundlePeers(root, join(scratch, 'peers-suite.mjs'))];
    const timed = await runSuite('peers', runner, 'time');
    return {
      status: prepared,
      rows: timed.rows ?? [],
      paired: timed.paired ?? [],
      allocations: await allocations('peers', runner),
      spans: timed.exportedSpansByScope,
    };
  } catch (error) {
    const reason = `the peers' process failed: ${error instanceof Error ? error.message : String(error)}`;
    log(`▶ peers skipped: ${reason}`);
    return { status: { status: 'skipped', reason }, rows: [], paired: [], allocations: [] };
  }
}

/**
 * The suite as plain JavaScript, bundled once by esbuild as tsup bundles the package (no
 * `keepNames`): what is timed is the code users run. Under tsx every named closure created per call
 * also pays a `__name()` call (tsx compiles with `keepNames`); the loader rows show that cost.
 */
async function compiledSuite(): Promise<string> {
  return bundleForNode(root, join('bench', 'suite.ts'), join(scratch, 'suite.mjs'));
}

const started = Date.now();
const loadBefore = loadavg();

/** This machine and its load, before and now. */
function machineState() {
  return {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    platform: `${process.platform} ${process.arch}`,
    loadAverageBefore: loadBefore.map((load) => Number(load.toFixed(2))),
    loadAverageAfter: loadavg().map((load) => Number(load.toFixed(2))),
  };
}

/**
 * What every group run alone (`--only`) ends with: its JSON (`measured`'s keys between the machine and
 * the targets), then its title, its tables (`body`) and its targets on stdout.
 */
function reportAlone(group: string, title: string, measured: object, body: string, targets: Target[]): void {
  const machine = machineState();
  const elapsedSeconds = Math.round((Date.now() - started) / 1000);
  mkdirSync(dirname(out), { recursive: true });
  const command = `node --import tsx bench/run.ts --only ${group}${quick ? ' --quick' : ''}`;
  const report = {
    generatedAt: new Date().toISOString(),
    quick,
    command,
    elapsedSeconds,
    machine,
    ...measured,
    targets,
  };
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`otel-tool-calls benchmark, ${title} alone${quick ? ' (QUICK MODE: not measurements)' : ''}`);
  console.log(`load average ${machine.loadAverageBefore[0]} → ${machine.loadAverageAfter[0]}; ${elapsedSeconds} s\n`);
  console.log(body);
  if (targets.length > 0) {
    console.log(`\nTargets${quick ? ' (quick mode: not judged on these numbers)' : ''}:\n${formatTargets(targets)}`);
  }
  console.log(`\nJSON: ${out}`);
}

/** The startup group alone: its tables and targets, and its JSON. */
async function startupAlone(): Promise<void> {
  log('▶ startup');
  const startup = await measureStartup(root, startupSettings, log);
  reportAlone('startup', 'the startup group', { startup }, formatStartup(startup), evaluateStartupTargets(startup));
}

/**
 * The MCP round trip over stdio (bench/mcp-round-trip.ts and its server, bundled): four worlds in
 * rotating batches, `rounds` of them.
 */
async function measureMcp(): Promise<McpRoundTripResult> {
  log('▶ MCP round trip over stdio');
  const mcpFile = join(scratch, 'mcp-round-trip.json');
  const mcpServer = await bundleForNode(root, join('bench', 'mcp', 'server.ts'), join(scratch, 'mcp-server.mjs'));
  const mcpClient = await bundleForNode(root, join('bench', 'mcp-round-trip.ts'), join(scratch, 'mcp-round-trip.mjs'));
  await node([
    ...[mcpClient, '--server', mcpServer, '--out', mcpFile],
    ...(quick ? ['--pairs', '2', '--calls', '5', '--warmup', '15'] : ['--pairs', String(mcpRounds), '--calls', '200']),
  ]);
  return JSON.parse(readFileSync(mcpFile, 'utf8')) as McpRoundTripResult;
}

/** The MCP group alone: its table and target, and its JSON. */
async function mcpAlone(): Promise<void> {
  const mcpRoundTrip = await measureMcp();
  reportAlone('mcp', 'the MCP group', { mcpRoundTrip }, formatMcpRoundTrip(mcpRoundTrip), [
    evaluateMcpTarget(mcpRoundTrip),
  ]);
}

/**
 * The metrics paths (bench/lib/metrics-paths.ts): per call, bench/metrics-paths.ts and its peer
 * (bundled) in processes of their own, timed, then once more for the bytes allocated; at start, the
 * startup group's machinery with the paths' cases, on this Node.
 */
async function measureMetricsPaths(): Promise<MetricsPathsResult> {
  const app = await bundleForNode(root, join('bench', 'metrics-paths.ts'), join(scratch, 'metrics-paths.mjs'));
  const peer = await bundleForNode(
    root,
    join('bench', 'metrics-paths', 'peer.ts'),
    join(scratch, 'metrics-paths-peer.mjs'),
  );
  const timed: MetricsPathsTimed[] = [];
  for (let k = 0; k < metricsPathsSettings.processes; k++) {
    log(`▶ metrics paths: push against pull per call, process ${k + 1}/${metricsPathsSettings.processes}`);
    const file = join(scratch, `metrics-paths-${k}.json`);
    await node([app, '--peer', peer, '--out', file, ...metricsPathsSettings.perProcess]);
    timed.push(JSON.parse(readFileSync(file, 'utf8')) as MetricsPathsTimed);
  }
  log('▶ metrics paths (bytes allocated per call)');
  const allocationFile = join(scratch, 'metrics-paths-allocation.json');
  await node([
    ...[...ALLOCATION_FLAGS, app, '--peer', peer, '--out', allocationFile, '--mode', 'allocation'],
    ...(quick ? ['--calls', '500', '--warmup', '1', '--window', '200', '--windows', '2'] : []),
  ]);
  const allocated = JSON.parse(readFileSync(allocationFile, 'utf8')) as MetricsPathsAllocated;
  log('▶ metrics paths at start');
  const [thisNode] = startupSettings.runtimes;
  const started = await measureStartup(
    root,
    { ...startupSettings, runtimes: [thisNode as StartupRuntime], cases: metricsPathStartupCases(await freePort()) },
    log,
  );
  const [measured] = started.runtimes;
  if (measured === undefined) throw new Error('the metrics paths at start measured no runtime');
  return summarizeMetricsPaths(timed, allocated, { ...measured, rounds: started.rounds });
}

/** The metrics paths group alone: its tables, and its JSON. */
async function metricsPathsAlone(): Promise<void> {
  const metricsPaths = await measureMetricsPaths();
  reportAlone('metrics-paths', 'the metrics paths group', { metricsPaths }, formatMetricsPaths(metricsPaths), []);
}

/**
 * The collector group (bench/collector.ts and its sender, bundled), in a process of its own, from the built
 * collector; skipped, with the reason, when scripts/services.sh has not built it (a bench run outside CI).
 * BENCH_COLLECTOR_SAMPLERS sets the tier's gateways (3 by default, as the compose profile).
 */
async function measureCollector(): Promise<CollectorResult> {
  const built = builtCollector();
  if ('missing' in built) {
    log(`▶ collector skipped: ${built.missing}`);
    return { status: 'skipped', reason: built.missing };
  }
  const script = await bundleForNode(root, join('bench', 'collector.ts'), join(scratch, 'collector.mjs'));
  const sender = await bundleForNode(
    root,
    join('bench', 'collector', 'sender.ts'),
    join(scratch, 'collector-sender.mjs'),
  );
  const file = join(scratch, 'collector.json');
  await node([
    ...[script, '--binary', built.path, '--sender', sender, '--out', file],
    ...(quick ? ['--quick'] : []),
    ...(process.env.BENCH_COLLECTOR_SAMPLERS ? ['--samplers', process.env.BENCH_COLLECTOR_SAMPLERS] : []),
  ]);
  return JSON.parse(readFileSync(file, 'utf8')) as CollectorResult;
}

/** The collector group alone: its tables and plan, and its JSON. */
async function collectorAlone(): Promise<void> {
  const collector = await measureCollector();
  reportAlone('collector', 'the collector tier', { collector }, formatCollector(collector), []);
}

/** The agent signals' group alone: timed, its comparisons in `targetProcesses` processes, judged. */
async function signalsAlone(): Promise<void> {
  const compiled = [await compiledSuite()];
  const paired: PairedResult[] = [];
  const measured = compare(await suite('signals', compiled, paired));
  const pairedByProcess: PairedResult[][] = [paired];
  for (let k = 1; k < targetProcesses; k++) pairedByProcess.push(await pairedOnly('signals', compiled));
  const body = `${formatTable(measured)}\n\n${formatPaired(paired)}`;
  reportAlone('signals', 'the agent signals', { rows: measured, paired }, body, evaluateSignalTargets(pairedByProcess));
}

try {
  if (only === 'startup') {
    await startupAlone();
  } else if (only === 'mcp') {
    await mcpAlone();
  } else if (only === 'signals') {
    await signalsAlone();
  } else if (only === 'metrics-paths') {
    await metricsPathsAlone();
  } else if (only === 'collector') {
    await collectorAlone();
  } else {
    await everything();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/** Every group, the report printed and its JSON written. */
async function everything(): Promise<void> {
  const compiled = [await compiledSuite()];
  const paired: PairedResult[] = [];
  const measured = [
    ...(await suite('no-sdk', compiled, paired)),
    ...(await suite('sdk', compiled, paired)),
    ...(await suite('capture', compiled, paired)),
    ...(await suite('loader-tsx', ['--import', 'tsx', 'bench/suite.ts'], paired)),
    ...(await suite('loader-compiled', compiled, paired)),
  ];
  // the targets' comparisons in more processes: the first is the timed worlds' own
  const targetWorlds = ['no-sdk', 'sdk', 'capture'];
  const pairedByProcess: PairedResult[][] = [paired.filter((result) => targetWorlds.includes(result.process))];
  for (let k = 1; k < targetProcesses; k++) {
    const again: PairedResult[] = [];
    for (const world of targetWorlds) again.push(...(await pairedOnly(world, compiled)));
    pairedByProcess.push(again);
  }
  const peersRun = await peers();
  measured.push(...peersRun.rows);
  paired.push(...peersRun.paired);
  const allocated = compareAllocations([
    ...(await allocations('no-sdk', compiled)),
    ...(await allocations('sdk', compiled)),
    ...peersRun.allocations,
  ]);

  log('▶ shared times');
  const sharedTimesFile = join(scratch, 'shared-times.json');
  await node(['--import', 'tsx', 'bench/shared-times.ts', '--out', sharedTimesFile]);
  const sharedTimes = JSON.parse(readFileSync(sharedTimesFile, 'utf8')) as SharedTimesResult;

  log('▶ memory');
  const memoryFile = join(scratch, 'memory.json');
  await node([
    ...['--import', 'tsx', 'bench/memory.ts', '--out', memoryFile],
    ...['--calls', String(memoryCalls), '--shutdown-wait', quick ? '1000' : '30000'],
  ]);
  const memory = JSON.parse(readFileSync(memoryFile, 'utf8')) as MemoryResult;

  log('▶ memory per call in flight');
  const inFlightFile = join(scratch, 'in-flight.json');
  const inFlightScript = await bundleForNode(root, join('bench', 'in-flight.ts'), join(scratch, 'in-flight.mjs'));
  await node([inFlightScript, '--out', inFlightFile, '--pairs', quick ? '1' : '20']);
  const inFlight = JSON.parse(readFileSync(inFlightFile, 'utf8')) as InFlightResult;

  log('▶ repeat table at 10,000 traces');
  const repeatTableFile = join(scratch, 'repeat-table.json');
  await node(['--import', 'tsx', 'bench/repeat-table.ts', '--out', repeatTableFile]);
  const repeatTable = JSON.parse(readFileSync(repeatTableFile, 'utf8')) as RepeatTableResult;

  const mcpRoundTrip = await measureMcp();

  log('▶ startup');
  const startup = await measureStartup(root, startupSettings, log);

  const metricsPaths = await measureMetricsPaths();

  const rows = compare(measured);
  const targets = [
    ...evaluateTargets(pairedByProcess, memory, sharedTimes),
    ...evaluateStartupTargets(startup),
    evaluateMcpTarget(mcpRoundTrip),
    evaluateRepeatTableTarget(repeatTable),
  ];
  const machine = machineState();
  const report = {
    generatedAt: new Date().toISOString(),
    quick,
    command: `node --import tsx bench/run.ts${quick ? ' --quick' : ''}`,
    elapsedSeconds: Math.round((Date.now() - started) / 1000),
    machine,
    settings: quick ? QUICK_SETTINGS : FULL_SETTINGS,
    peers: { ...peersRun.status, exportedSpansByScope: peersRun.spans },
    rows,
    paired,
    pairedByProcess,
    allocations: allocated,
    sharedTimes,
    memory,
    inFlight,
    repeatTable,
    mcpRoundTrip,
    startup,
    metricsPaths,
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
  console.log(`\n${formatPaired(paired)}`);
  console.log(`\n${formatPeers(peersRun.status, peersRun.spans)}`);
  console.log(`\nBytes allocated per call (one call in flight):\n${formatAllocations(allocated)}`);
  console.log(`\n${formatSharedTimes(sharedTimes)}`);
  console.log(`\n${formatMemory(memory)}`);
  console.log(`\n${formatInFlight(inFlight)}`);
  console.log(`\n${formatRepeatTable(repeatTable)}`);
  console.log(`\n${formatMcpRoundTrip(mcpRoundTrip)}`);
  console.log(`\n${formatStartup(startup)}`);
  console.log(`\n${formatMetricsPaths(metricsPaths)}`);
  console.log(`\nTargets${quick ? ' (quick mode: not judged on these numbers)' : ''}:\n${formatTargets(targets)}`);
  console.log(`\n${formatPooledValues(targets)}`);
  console.log(`\nJSON: ${out}`);
}
