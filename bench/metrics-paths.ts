/**
 * The metrics paths per call: what an observed tool call costs the app with its metrics pushed over
 * OTLP, against served at `/metrics` and scraped, the periodic export's share included. One process
 * holds the three paths side by side (bench/lib/metrics-paths.ts's METRICS_PATHS), each a meter
 * provider of the real SDK with its reader built as the package builds it (register's
 * `metricReadersFromEnv` for `OTEL_METRICS_EXPORTER=prometheus` and `otlp`; setup's `metrics: 'otlp'`
 * reader as src/setup.ts makes it), and a listener given that provider; the real trace SDK is registered
 * globally (`installSdk`: a context manager, a batch span processor whose exporter drops the spans).
 *
 * A batch is what happens between two exports: `--calls` calls (10,000), of 12 tools in turn, one call
 * in 20 of each tool failing, with one of three error types in turn (reported to the model), one call
 * in flight (96 series: a duration histogram for each tool and error type, an error counter for each
 * failing one, a result size histogram for each tool); then the export: for a push path, the reader's
 * `forceFlush()` (collect, serialize, send to the receiver, wait for its answer: what its timer does
 * each `OTEL_METRIC_EXPORT_INTERVAL`); for pull, one scrape of `/metrics` over HTTP (collect,
 * serialize, answer). The receiver and the scraper are another process
 * (bench/metrics-paths/peer.ts), so that the CPU counted, this process's, is the app's alone. Each
 * batch's CPU is timed in two parts, the calls and the export; every export must have reached the peer
 * with the duration histogram in it. The readers' own timers are set past the run: the bench exports.
 *
 * `--mode time` (the default): `--warmup` batches of each path (not kept), then `--rounds` rounds of one
 * batch of each path, in rotating order, a full collection before each batch (the garbage of the one
 * before is not its cost). `--mode allocation` (started with a young generation large enough, as the
 * suite's allocation mode): bytes allocated by windows of `--window` calls and by single exports, each
 * window between full collections and kept only if no collection ran in it (bench/lib/allocation.ts).
 *
 * Usage: metrics-paths.ts --peer <peer.mjs> --out <file.json> [--mode time|allocation] [--calls 10000] [--rounds 30] [--warmup 3] [--window 2000] [--windows 7]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import * as core from '@opentelemetry/core';
import * as otlpHttp from '@opentelemetry/exporter-metrics-otlp-http';
import * as otlpProto from '@opentelemetry/exporter-metrics-otlp-proto';
import * as prometheus from '@opentelemetry/exporter-prometheus';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import * as sdkMetrics from '@opentelemetry/sdk-metrics';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from '../src/index.js';
import { metricReadersFromEnv } from '../src/register/sdk-from-env.js';
import { freePort } from './lib/free-port.js';
import {
  FAILING_ONE_IN,
  METRICS_PATHS,
  type MetricsPathId,
  type MetricsPathsAllocated,
  type MetricsPathsTimed,
  TOOL_COUNT,
} from './lib/metrics-paths.js';
import { cpuNs } from './lib/sampling.js';
import { installSdk } from './lib/sdk-world.js';
import type { PeerAnswer, PeerQuestion, PeerRequest } from './metrics-paths/peer.js';

const { values } = parseArgs({
  options: {
    peer: { type: 'string' },
    out: { type: 'string' },
    mode: { type: 'string', default: 'time' },
    calls: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    window: { type: 'string', default: '2000' },
    windows: { type: 'string', default: '7' },
  },
});
const [calls, rounds, warmup, window, windows] = [
  values.calls,
  values.rounds,
  values.warmup,
  values.window,
  values.windows,
].map(Number) as [number, number, number, number, number];
const mode = values.mode;
if (
  !values.peer ||
  !values.out ||
  (mode !== 'time' && mode !== 'allocation') ||
  ![calls, rounds, window, windows].every((n) => Number.isSafeInteger(n) && n >= 1) ||
  !(Number.isSafeInteger(warmup) && warmup >= 0)
) {
  throw new Error(
    'usage: metrics-paths.ts --peer <peer.mjs> --out <file.json> [--mode time|allocation] [--calls <n>] [--rounds <n>] [--warmup <n>] [--window <calls>] [--windows <n>]',
  );
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('metrics-paths.ts needs node --expose-gc');

/** The readers' own interval, ms: past the run (setInterval takes at most 2^31 − 1). */
const NEVER = 2_000_000_000;

// ---- the peer: the receiver the pushes go to, the scraper of /metrics

interface Peer {
  readonly url: string;
  ask(question: PeerRequest): Promise<PeerAnswer>;
  close(): void;
}

async function startPeer(file: string): Promise<Peer> {
  const child: ChildProcess = fork(file, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (answer: PeerAnswer) => void>();
  let next = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the metrics paths' peer exited (${code})`)));
    child.on('message', (message: PeerAnswer | { kind: 'ready'; url: string }) => {
      if ('kind' in message) resolve(message.url);
      else waiting.get(message.id)?.(message);
    });
  });
  return {
    url,
    ask: (question) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, (answer) => {
          waiting.delete(id);
          resolve(answer);
        });
        child.send({ ...question, id } satisfies PeerQuestion);
      }),
    close: () => child.disconnect(),
  };
}

// ---- the paths

/** The packages register loads, bundled here (register's own code builds the readers from them). */
const PACKAGES: Record<string, unknown> = {
  '@opentelemetry/core': core,
  '@opentelemetry/sdk-metrics': sdkMetrics,
  '@opentelemetry/exporter-prometheus': prometheus,
  '@opentelemetry/exporter-metrics-otlp-proto': otlpProto,
  '@opentelemetry/exporter-metrics-otlp-http': otlpHttp,
};
const load = <Module>(name: string): Module => {
  if (!(name in PACKAGES)) throw new Error(`metrics-paths.ts: register asked for ${name}, not bundled here`);
  return PACKAGES[name] as Module;
};

/** `make()` with the variables set, as the app's environment would have them; restored after. */
function withEnv<T>(variables: Record<string, string>, make: () => T): T {
  const before = Object.fromEntries(Object.keys(variables).map((key) => [key, process.env[key]]));
  Object.assign(process.env, variables);
  try {
    return make();
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

function onlyReader(readers: sdkMetrics.MetricReader[]): sdkMetrics.MetricReader {
  if (readers.length !== 1) throw new Error(`expected one metric reader, got ${readers.length}`);
  return readers[0] as sdkMetrics.MetricReader;
}

/** The resource the exports carry (and /metrics's target_info): what register's start gives a service. */
const resource = defaultResource().merge(
  resourceFromAttributes({
    'service.name': 'metrics-paths-bench',
    'service.version': '1.4.2',
    'service.instance.id': '7f0c9a52-3d1e-4b8a-9a47-2c5e0e7d1b64',
    'host.name': 'bench-host',
    'host.arch': process.arch,
    'os.type': process.platform,
    'process.pid': process.pid,
    'process.runtime.name': 'nodejs',
    'process.runtime.version': process.versions.node,
  }),
);

interface Path {
  readonly id: MetricsPathId;
  /** The listener's calls, with this path's meter provider. */
  readonly tools: ReturnType<typeof observedTools>;
  /** One export (push) or scrape (pull); resolves with the bytes that crossed, once checked. */
  readonly export: () => Promise<number>;
  /** The next call's number: each path makes the same sequence of calls. */
  next: number;
}

/** The path's export checked: it reached the peer, once, with the duration histogram in it. */
function checked(id: MetricsPathId, answer: PeerAnswer): number {
  if (answer.error !== undefined || answer.requests !== 1 || answer.named !== 1) {
    throw new Error(`metrics path ${id}: the export did not arrive whole: ${JSON.stringify(answer)}`);
  }
  return answer.bytes;
}

function makePath(id: MetricsPathId, reader: sdkMetrics.MetricReader, exporting: () => Promise<number>): Path {
  const meterProvider = new sdkMetrics.MeterProvider({ resource, readers: [reader] });
  return {
    id,
    tools: observedTools(new OpenTelemetryToolCallListener({ meterProvider, errorPolicy: 'report' })),
    export: exporting,
    next: 0,
  };
}

function buildPaths(peer: Peer, prometheusPort: number): Path[] {
  const pushed = (id: MetricsPathId, reader: sdkMetrics.MetricReader) =>
    makePath(id, reader, async () => {
      await reader.forceFlush();
      return checked(id, await peer.ask({ kind: 'received' }));
    });
  const built: Record<MetricsPathId, () => Path> = {
    pull: () => {
      const reader = withEnv(
        {
          OTEL_METRICS_EXPORTER: 'prometheus',
          OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
          OTEL_EXPORTER_PROMETHEUS_PORT: String(prometheusPort),
        },
        () => onlyReader(metricReadersFromEnv(load)),
      );
      const url = `http://127.0.0.1:${prometheusPort}/metrics`;
      return makePath('pull', reader, async () => checked('pull', await peer.ask({ kind: 'scrape', url })));
    },
    'push-protobuf': () =>
      pushed(
        'push-protobuf',
        withEnv(
          {
            OTEL_METRICS_EXPORTER: 'otlp',
            OTEL_EXPORTER_OTLP_ENDPOINT: peer.url,
            OTEL_METRIC_EXPORT_INTERVAL: String(NEVER),
          },
          () => onlyReader(metricReadersFromEnv(load)),
        ),
      ),
    // src/setup.ts's reader for metrics: 'otlp' (its interval aside)
    'push-json': () =>
      pushed(
        'push-json',
        withEnv(
          { OTEL_EXPORTER_OTLP_ENDPOINT: peer.url },
          () =>
            new sdkMetrics.PeriodicExportingMetricReader({
              exporter: new otlpHttp.OTLPMetricExporter(),
              exportIntervalMillis: NEVER,
            }),
        ),
      ),
  };
  return METRICS_PATHS.map(({ id }) => built[id]());
}

// ---- the calls

const TOOL_NAMES = [
  'search_docs',
  'get_weather',
  'read_file',
  'write_file',
  'run_sql',
  'send_email',
  'fetch_url',
  'create_ticket',
  'list_files',
  'summarize',
  'translate',
  'calculator',
];
if (TOOL_NAMES.length !== TOOL_COUNT) throw new Error('TOOL_NAMES and TOOL_COUNT disagree');

class RateLimitError extends Error {
  override name = 'RateLimitError';
}
const ERRORS = [
  () => new TypeError('expected a string'),
  () => new RateLimitError('429 Too Many Requests'),
  () => new RangeError('page out of range'),
];

interface CallInput {
  readonly query: string;
  /** The error the tool throws, by its index in ERRORS. */
  readonly fails?: number;
}

const QUERIES = ['Lisbon', 'quarterly revenue by region', 'README.md', 'SELECT 1', 'https://example.com/a'];
/**
 * Call k's input; its tool is k's turn among the tools. One call in FAILING_ONE_IN of each tool fails,
 * the error types in turn: every tool has a series for each error type, as a service that runs a while.
 */
function inputOf(k: number): CallInput {
  const query = QUERIES[k % QUERIES.length] as string;
  const ofTool = Math.floor(k / TOOL_COUNT); // the tool's own call count
  return ofTool % FAILING_ONE_IN === FAILING_ONE_IN - 1
    ? { query, fails: Math.floor(ofTool / FAILING_ONE_IN) % ERRORS.length }
    : { query };
}
const INPUTS = Array.from({ length: TOOL_COUNT * FAILING_ONE_IN * ERRORS.length * QUERIES.length }, (_, k) =>
  inputOf(k),
);

function observedTools(listener: OpenTelemetryToolCallListener) {
  return TOOL_NAMES.map((name) =>
    ToolCallListeners.wrap(
      functionToolCallback({ name, description: `The ${name} tool` }, async (input: CallInput) => {
        if (input.fails !== undefined) throw (ERRORS[input.fails] as () => Error)();
        return input.query.length;
      }),
      listener,
    ),
  );
}

/** `count` calls of the path, one in flight, each result checked (a failure is reported as text). */
async function runCalls(path: Path, count: number): Promise<void> {
  const { tools } = path;
  for (let i = 0; i < count; i++) {
    const k = path.next++;
    const input = INPUTS[k % INPUTS.length] as CallInput;
    const result = await tools[k % tools.length]?.call(input, { toolCallId: `call_${k}` });
    if (typeof result !== (input.fails === undefined ? 'number' : 'string')) {
      throw new Error(`metrics path ${path.id}: call ${k} answered ${String(result)}`);
    }
  }
}

// ---- the modes

async function timeBatch(path: Path) {
  gc?.();
  const begin = cpuNs();
  await runCalls(path, calls);
  const called = cpuNs();
  const payloadBytes = await path.export();
  return { callsNs: called - begin, exportNs: cpuNs() - called, payloadBytes };
}

async function timed(paths: readonly Path[]): Promise<MetricsPathsTimed> {
  const rotated = (round: number) => paths.map((_, i) => paths[(round + i) % paths.length] as Path);
  for (let batch = 0; batch < warmup; batch++) for (const path of rotated(batch)) await timeBatch(path);
  const batches = Object.fromEntries(
    paths.map((path) => [path.id, { callsNs: [] as number[], exportNs: [] as number[], payloadBytes: [] as number[] }]),
  ) as MetricsPathsTimed['batches'];
  for (let round = 0; round < rounds; round++) {
    for (const path of rotated(round)) {
      const { callsNs, exportNs, payloadBytes } = await timeBatch(path);
      batches[path.id].callsNs.push(callsNs);
      batches[path.id].exportNs.push(exportNs);
      batches[path.id].payloadBytes.push(payloadBytes);
    }
    if ((round + 1) % 10 === 0) process.stderr.write(`  [metrics-paths] round ${round + 1}/${rounds}\n`);
  }
  return { mode: 'time', callsPerBatch: calls, warmupBatches: warmup, batches };
}

/** Lets pending GC performance entries reach the observer (they are delivered asynchronously). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

async function allocation(paths: readonly Path[]): Promise<MetricsPathsAllocated> {
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  /** Bytes `work` allocated, or undefined when a collection ran meanwhile. */
  const allocatedBy = async (work: () => Promise<unknown>) => {
    gc?.();
    gc?.();
    await settle();
    const before = collections;
    const heap = process.memoryUsage().heapUsed;
    await work();
    const grown = process.memoryUsage().heapUsed - heap;
    await settle();
    return collections === before ? grown : undefined;
  };
  const result = {} as MetricsPathsAllocated['paths'];
  try {
    for (const path of paths) {
      // the optimized code is what is measured; every series exists before the first window
      for (let batch = 0; batch < Math.max(warmup, 1); batch++) {
        await runCalls(path, calls);
        await path.export();
      }
      const callWindows: number[] = [];
      const exportWindows: number[] = [];
      let discarded = 0;
      for (let attempt = 0; callWindows.length < windows && attempt < windows * 3; attempt++) {
        const bytes = await allocatedBy(() => runCalls(path, window));
        if (bytes === undefined) discarded++;
        else callWindows.push(bytes / window);
      }
      for (let attempt = 0; exportWindows.length < windows && attempt < windows * 3; attempt++) {
        const bytes = await allocatedBy(path.export);
        if (bytes === undefined) discarded++;
        else exportWindows.push(bytes);
      }
      result[path.id] = { callWindows, exportWindows, discarded };
    }
  } finally {
    observer.disconnect();
  }
  return { mode: 'allocation', callsPerWindow: window, paths: result };
}

installSdk(); // the trace SDK; its global meter provider is not used here: each listener is given its path's
const peer = await startPeer(values.peer);
try {
  const paths = buildPaths(peer, await freePort());
  const output = mode === 'time' ? await timed(paths) : await allocation(paths);
  writeFileSync(values.out, JSON.stringify(output));
} finally {
  peer.close();
}
// the Prometheus endpoint and the SDK's timers would keep the process alive; what it measured is written
process.exit(0);
