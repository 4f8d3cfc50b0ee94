// The demo (npm start): simulated agents running real AI SDK agent loops whose tool calls are
// observed by OpenTelemetryToolCallListener. Spans go over OTLP/HTTP (Jaeger), metrics are served
// for Prometheus, and the terminal gets a per-tool summary and the span tree of one run.
// Usage: npx tsx examples/demo/main.ts [--duration 20] [--rate 3] [--agents 6] [--metrics-port 9464]
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { createAgents, errorPolicyOf } from './agents.js';
import { formatToolMetrics, parseToolMetrics, scrapeMetrics } from './metrics-summary.js';
import { type DemoOptions, parseDemoOptions, USAGE } from './options.js';
import { RunRecorder } from './run-recorder.js';
import { formatSpanTree } from './span-tree.js';
import { formatToolTable } from './tool-table.js';
import { CountingTraceExporter, otlpTracesUrl } from './trace-delivery.js';
import { runWorkload } from './workload.js';

const SHUTDOWN_BOUND_MS = 3000;
const PROGRESS_EVERY_MS = 5000;

let options: DemoOptions | 'help';
try {
  options = parseDemoOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  console.log(USAGE);
  process.exit(0);
}

const metricsHost = process.env.OTEL_EXPORTER_PROMETHEUS_HOST || undefined;
const metricsPort = options.metricsPort ?? (Number(process.env.OTEL_EXPORTER_PROMETHEUS_PORT) || 9464);
// The exporter only logs (through diag, silent by default) when its port is taken: say it clearly instead.
if (!(await portIsFree(metricsPort, metricsHost))) {
  console.error(`Port ${metricsPort} is in use (another demo running?): pass --metrics-port <port>.`);
  process.exit(1);
}

const recorder = new RunRecorder();
const traces = new CountingTraceExporter();
const telemetry = startToolCallTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME || 'tool-calls-demo',
  traces,
  spanProcessors: [recorder],
  prometheusPort: metricsPort,
});
const agents = createAgents(options.agents);
const kinds = [...new Set(agents.map((agent) => agent.name))];

console.log(
  `otel-tool-calls demo: ${options.agents} agents (${kinds.join(', ')}), ${options.runsPerSecond} runs/s for ${options.durationSeconds} s`,
);
console.log(`  traces  → OTLP/HTTP ${otlpTracesUrl()} (if nothing listens there, only this summary sees them)`);
console.log(`  metrics → ${telemetry.metricsUrl} (Prometheus scrapes it while the demo runs)\n`);

// Ctrl-C: start no new runs, let those in flight finish, print the summary. A second one quits.
const stop = new AbortController();
let stoppingSince = 0;
process.on('SIGINT', () => {
  if (!stop.signal.aborted) {
    stoppingSince = performance.now();
    console.log('\nstopping: waiting for the runs in flight (Ctrl-C again to quit now)');
    stop.abort();
  } else if (performance.now() - stoppingSince > 1000) {
    process.exit(130);
  } // else the same keypress, relayed once more by npm or tsx
});

const started = performance.now();
const progress = setInterval(() => {
  const samples = [...recorder.tools.values()];
  const calls = samples.reduce((sum, tool) => sum + tool.durationsMs.length, 0);
  const errors = samples.reduce((sum, tool) => sum + tool.reported + tool.rethrown, 0);
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(`  ${seconds} s: ${recorder.finishedRuns} runs, ${calls} tool calls, ${errors} failed`);
}, PROGRESS_EVERY_MS);
const result = await runWorkload({
  agents,
  runsPerSecond: options.runsPerSecond,
  durationMs: options.durationSeconds * 1000,
  stop: stop.signal,
});
clearInterval(progress);

const elapsed = ((performance.now() - started) / 1000).toFixed(1);
const failedRuns = result.failedRuns ? ` (${result.failedRuns} failed)` : '';
console.log(`\nFinished: ${result.runs} agent runs in ${elapsed} s${failedRuns}\n`);
// what Prometheus would scrape now: the metrics are the package's, not the demo's own count
const metrics = telemetry.metricsUrl ? await scrapeMetrics(telemetry.metricsUrl) : new Error('no endpoint');
if (metrics instanceof Error) {
  console.log(`Metrics: could not read ${telemetry.metricsUrl}: ${metrics.message}\n`);
} else {
  console.log(`Tool calls, as the metrics record them (${telemetry.metricsUrl}; p95 from the buckets, as Grafana)`);
  console.log(`${formatToolMetrics(parseToolMetrics(metrics), errorPolicyOf)}\n`);
}
console.log('The calls the tools ran, from the execute_tool spans (exact percentiles)');
console.log(`${formatToolTable(recorder.tools)}\n`);
const sample = recorder.sampleRun;
const sampleRoot = sample?.find((span) => span.parentSpanContext === undefined);
if (sample && sampleRoot) {
  console.log(`Span tree of one agent run (trace ${sampleRoot.spanContext().traceId})`);
  console.log(`${formatSpanTree(sample)}\n`);
}

// Flush the spans, bounded: with no collector the exporter would retry for its whole timeout.
await Promise.race([telemetry.shutdown(), sleep(SHUTDOWN_BOUND_MS)]);
if (traces.delivered > 0) {
  console.log(`Traces: ${traces.delivered} spans delivered to ${otlpTracesUrl()}`);
  if (sampleRoot) console.log(`  this run in Jaeger: http://localhost:16686/trace/${sampleRoot.spanContext().traceId}`);
} else {
  const why = traces.lastError ? `: ${traces.lastError}` : '';
  console.log(`Traces: none delivered to ${otlpTracesUrl()}${why}`);
  console.log(
    '  to see them in Jaeger and Grafana: docker compose -f docker-compose.otel.yml up -d (or npm run stack), then run again',
  );
}
console.log('  Jaeger http://localhost:16686 · Grafana http://localhost:3000 (dashboard "Tool calls")');
// exit now: an exporter still retrying would keep the process alive until its timeout
process.exit(result.failedRuns > 0 ? 1 : 0);

function portIsFree(port: number, host: string | undefined): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
