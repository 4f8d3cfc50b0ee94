/**
 * The exporter-down memory check, started by bench/run.ts in a process of its own with --expose-gc:
 * `calls` calls through the OpenTelemetry listener on the SDK that `startToolCallTelemetry` starts,
 * its OTLP/HTTP trace and metric exporters pointed at a port on 127.0.0.1 that nothing listens on.
 * The batch span processor's queue is bounded (2048 spans), so the heap must stay flat however long
 * the collector is down, and no export failure may reach the caller.
 *
 * Usage: memory.ts --out <file.json> [--calls 1000000] [--shutdown-wait <ms>]
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { asyncWeatherTool, EXPECTED_RESULT, INPUT, TOOL_CONTEXT } from './lib/tools.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    calls: { type: 'string', default: '1000000' },
    'shutdown-wait': { type: 'string', default: '30000' },
  },
});
const calls = Number(values.calls);
const shutdownWaitMs = Number(values['shutdown-wait']);
if (!values.out || !Number.isSafeInteger(calls) || calls < 1 || !(shutdownWaitMs >= 0)) {
  throw new Error('usage: memory.ts --out <file.json> [--calls <n>] [--shutdown-wait <ms>]');
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory.ts needs node --expose-gc');

const IN_FLIGHT = 100;
const WARMUP_CALLS = Math.min(20_000, Math.ceil(calls / 10));
const SAMPLES = 10;

/** A port that was just free on 127.0.0.1 and is closed again: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}

function settledHeap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const port = await closedPort();
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
process.env.OTEL_METRIC_EXPORT_INTERVAL = '1000';
const telemetry = startToolCallTelemetry({ serviceName: 'otel-tool-calls-bench', metrics: 'otlp' });

// what the SDK and the listener log instead of throwing: counted, to show the failures were seen
const logged = { error: 0, warn: 0 };
const counter: DiagLogger = {
  error: () => void logged.error++,
  warn: () => void logged.warn++,
  info: () => {},
  debug: () => {},
  verbose: () => {},
};
diag.setLogger(counter, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });

const caller = { rejected: 0, wrongResults: 0, unhandledRejections: 0, uncaughtExceptions: 0, firstError: '' };
process.on('unhandledRejection', () => void caller.unhandledRejections++);
process.on('uncaughtException', () => void caller.uncaughtExceptions++);

const tool = ToolCallListeners.wrap(asyncWeatherTool(), new OpenTelemetryToolCallListener());

async function run(count: number, onProgress?: (done: number) => void) {
  const every = Math.max(IN_FLIGHT, Math.floor(count / SAMPLES / IN_FLIGHT) * IN_FLIGHT);
  const pending = new Array<Promise<number | string>>(IN_FLIGHT);
  for (let done = 0; done < count; ) {
    const batch = Math.min(IN_FLIGHT, count - done);
    pending.length = batch;
    for (let i = 0; i < batch; i++) pending[i] = tool.call(INPUT, TOOL_CONTEXT);
    for (const outcome of await Promise.allSettled(pending)) {
      if (outcome.status === 'rejected') {
        caller.rejected++;
        caller.firstError ||= String(outcome.reason);
      } else if (outcome.value !== EXPECTED_RESULT) {
        caller.wrongResults++;
      }
    }
    done += batch;
    if (onProgress && done % every === 0) onProgress(done);
  }
}

await run(WARMUP_CALLS);
await sleep(200);
const heapBefore = settledHeap();
const heapSamples: { calls: number; heapUsed: number }[] = [];

const started = performance.now();
await run(calls, (done) => {
  // a forced GC every tenth of the run: the curve shows growth, if any, as it happens
  heapSamples.push({ calls: done, heapUsed: settledHeap() });
  process.stderr.write(`  [memory] ${done.toLocaleString('en-US')} calls\n`);
});
const elapsedMs = performance.now() - started;

// let the last exports fail (connection refused comes back at once) before weighing the heap
await sleep(1500);
const heapAfter = settledHeap();
const peakRssBytes = process.resourceUsage().maxRSS * 1024;

const shutdownStarted = performance.now();
const shutdown = await Promise.race([
  telemetry.shutdown().then(() => 'resolved' as const),
  // the exporters give up after their own timeout (10 s by default): bounded, but not waited for in --quick
  sleep(shutdownWaitMs).then(() => `not done after ${shutdownWaitMs / 1000} s` as const),
]);
const shutdownMs = performance.now() - shutdownStarted;

writeFileSync(
  values.out,
  JSON.stringify({
    calls,
    inFlight: IN_FLIGHT,
    exporterEndpoint: `http://127.0.0.1:${port} (closed)`,
    elapsedMs: Math.round(elapsedMs),
    nsPerCall: Math.round((elapsedMs * 1e6) / calls),
    heapBeforeBytes: heapBefore,
    heapAfterBytes: heapAfter,
    heapGrowthBytes: heapAfter - heapBefore,
    heapSamples,
    peakRssBytes,
    caller,
    diagLogged: logged,
    shutdown,
    shutdownMs: Math.round(shutdownMs),
  }),
);
// the exporters' sockets and timers must not keep the process alive after a timed-out shutdown
process.exit(0);
