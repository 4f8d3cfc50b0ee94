import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Runs `npm run bench -- --quick` as a user would (a child process, tsx, the children it starts)
// and checks what it produces. No timing is asserted: quick-mode numbers mean nothing. The peers are
// installed by the bench itself (npm ci --prefix bench/peers) when absent; when that is impossible,
// their rows must be skipped with the reason in the report.

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
const jsonFile = join(scratch, 'quick.json');

interface Row {
  id: string;
  process: string;
  group: string;
  world: string;
  tool: string;
  kind: string;
  label: string;
  inFlight: number;
  nsPerCall: number;
  roundsNs: number[];
  vsBare: number;
  overBareNs: number;
  vsFloor: number | null;
}

/** The agent signals' cases (bench/lib/signal-cases.ts): on, off and their floor, a trace per call and repeated. */
const SIGNAL_KINDS = [
  'signals-off',
  'signals-on',
  'signals-off-repeated',
  'signals-on-repeated',
  'signals-floor',
  'signals-floor-repeated',
];

const PEER_KINDS = ['openinference', 'traceloop', 'langfuse'].flatMap((peer) => [
  `${peer}-default`,
  `${peer}-content-off`,
]);

/** The `peers` process's rows: its references and each peer in both settings. */
function peerRowIds(): string[] {
  return ['bare', 'otel-sdk', 'floor', ...PEER_KINDS].map((kind) => `peers/async/${kind}/x1`);
}

/** Every row the suite must produce, by id (group, process, tool, case, calls in flight). */
function expectedRowIds(peersMeasured: boolean): string[] {
  const ids: string[] = [];
  for (const world of ['no-sdk', 'sdk']) {
    const kinds =
      world === 'sdk' ? ['bare', 'empty-listener', 'otel-sdk', 'floor'] : ['bare', 'empty-listener', 'otel-no-sdk'];
    for (const kind of kinds) {
      ids.push(`${world}/sync/${kind}/x1`);
      for (const inFlight of [1, 100, 10_000]) ids.push(`${world}/async/${kind}/x${inFlight}`);
    }
  }
  ids.push('no-sdk/sync/otel-no-sdk-report/x1', 'no-sdk/async/otel-no-sdk-report/x1');
  for (const kind of [
    'bare',
    'otel-sdk',
    'capture-1kb',
    'capture-cap-string',
    'capture-10mb-string',
    'capture-cap-records',
    'capture-10mb-records',
  ]) {
    ids.push(`capture/async/${kind}/x1`);
  }
  for (const kind of ['composite-3-empty', 'composite-otel-counting-empty']) ids.push(`sdk/async/${kind}/x1`);
  for (const kind of SIGNAL_KINDS) {
    ids.push(`sdk/async/${kind}/x1`);
  }
  for (const loader of ['tsx', 'compiled']) {
    for (const tool of ['sync', 'async']) {
      for (const kind of ['bare', 'empty-listener', 'otel-no-sdk']) ids.push(`loader-${loader}/${tool}/${kind}/x1`);
    }
    ids.push(`loader-${loader}/async/capture-1kb/x1`);
  }
  if (peersMeasured) ids.push(...peerRowIds());
  return ids.sort();
}

let exitCode: number | null;
let stdout = '';
let stderr = '';

beforeAll(async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--out', jsonFile], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  exitCode = await new Promise((resolve) => child.on('exit', resolve));
  // a first run may install the peers (npm ci --prefix bench/peers) before measuring; the startup
  // group starts about 10 whole processes
}, 600_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm run bench -- --quick', () => {
  it('completes with exit code 0', () => {
    expect(exitCode, stderr).toBe(0);
  });

  it('writes valid JSON with every case, each with a positive time per call and its comparisons', () => {
    const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
    expect(report.quick).toBe(true);
    const rows = report.rows as Row[];
    expect(rows.map((row) => row.id).sort()).toEqual(expectedRowIds(report.peers.status === 'measured'));
    for (const row of rows) {
      expect(row.nsPerCall, row.id).toBeGreaterThan(0);
      expect(row.roundsNs.length, row.id).toBeGreaterThanOrEqual(1);
      expect(Number.isFinite(row.vsBare), row.id).toBe(true);
      expect(Number.isFinite(row.overBareNs), row.id).toBe(true);
      // only the real-SDK processes have a floor to compare with
      if (row.process === 'sdk' || row.process === 'peers') expect(row.vsFloor, row.id).toBeGreaterThan(0);
      else expect(row.vsFloor, row.id).toBeNull();
    }
    expect(rows.find((row) => row.id === 'sdk/async/bare/x1')?.vsBare).toBe(1);
  });

  it('prints every case as a line of the table', () => {
    const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
    // the main table: from its header to the first line that is not a table row (the allocation table follows)
    const lines = stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('| group'));
    const end = lines.findIndex((line, i) => i > header && !line.startsWith('|'));
    const tableLines = lines.slice(header + 2, end);
    const printed = tableLines.map((line) =>
      line
        .split('|')
        .slice(1, 6)
        .map((cell) => cell.trim())
        .join(' / '),
    );
    expect(printed).toHaveLength(report.rows.length);
    for (const row of report.rows as Row[]) {
      const key = [row.group, row.process, row.label, row.tool, row.inFlight.toLocaleString('en-US')].join(' / ');
      expect(printed, row.id).toContain(key);
    }
  });

  it('judges every target and prints it with met or missed', () => {
    const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
    const ids = (report.targets as { id: string; met: boolean; value: number }[]).map((target) => target.id);
    expect(ids).toEqual([
      'no-sdk-async',
      'no-sdk-sync',
      'sdk-vs-floor-async',
      'sdk-vs-floor-sync',
      'sdk-vs-floor-async-10000',
      'signals-on-vs-off',
      'signals-on-vs-off-repeated',
      'signals-on-vs-floor',
      'signals-on-vs-floor-repeated',
      'span-histogram-shared-times',
      'empty-listener-async',
      'capture-10mb-vs-cap',
      'memory-heap-growth',
      'memory-no-caller-error',
      // four per runtime the startup group ran on: this Node first
      ...(report.startup.runtimes as { runtime: { id: string } }[]).flatMap(({ runtime }) => [
        `startup-register-cpu-${runtime.id}`,
        `startup-register-rss-${runtime.id}`,
        `startup-register-vs-floor-cpu-${runtime.id}`,
        `startup-register-vs-floor-rss-${runtime.id}`,
      ]),
      'mcp-stdio-round-trip',
      'repeat-table-memory',
    ]);
    for (const target of report.targets as { description: string; met: boolean; value: number; verdict: string }[]) {
      expect(typeof target.met).toBe('boolean');
      expect(target.met).toBe(target.verdict === 'met');
      expect(Number.isFinite(target.value)).toBe(true);
      expect(stdout).toMatch(new RegExp(`(met {3}|MISSED|EDGE {2}) {2}${escapeRegExp(target.description)}: `));
    }
  });

  it('measures each comparison the targets are judged on (and the peers against their floor) in pairs of batches of two cases of one process', () => {
    const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
    const rows = new Map((report.rows as Row[]).map((row) => [row.id, row]));
    const paired = report.paired as {
      id: string;
      subject: string;
      reference: string;
      process: string;
      pairs: number;
      ratio: number;
      ratioQuartiles: [number, number];
      overNs: number;
      subjectNs: number;
      referenceNs: number;
    }[];
    expect(paired.map((comparison) => `${comparison.subject} vs ${comparison.reference}`)).toEqual([
      'no-sdk/async/otel-no-sdk/x1 vs no-sdk/async/bare/x1',
      'no-sdk/sync/otel-no-sdk/x1 vs no-sdk/sync/bare/x1',
      'no-sdk/async/empty-listener/x1 vs no-sdk/async/bare/x1',
      'sdk/async/otel-sdk/x1 vs sdk/async/floor/x1',
      'sdk/sync/otel-sdk/x1 vs sdk/sync/floor/x1',
      'sdk/async/otel-sdk/x10000 vs sdk/async/floor/x10000',
      'sdk/async/signals-on/x1 vs sdk/async/signals-off/x1',
      'sdk/async/signals-on-repeated/x1 vs sdk/async/signals-off-repeated/x1',
      'sdk/async/signals-on/x1 vs sdk/async/signals-floor/x1',
      'sdk/async/signals-on-repeated/x1 vs sdk/async/signals-floor-repeated/x1',
      'capture/async/capture-10mb-string/x1 vs capture/async/capture-cap-string/x1',
      'capture/async/capture-10mb-records/x1 vs capture/async/capture-cap-records/x1',
      // the peers' ratios to their process's floor, read as the targets' are
      ...(report.peers.status === 'measured'
        ? ['otel-sdk', ...PEER_KINDS].map((kind) => `peers/async/${kind}/x1 vs peers/async/floor/x1`)
        : []),
    ]);
    for (const comparison of paired) {
      expect(rows.get(comparison.subject)?.process, comparison.id).toBe(comparison.process);
      expect(rows.get(comparison.reference)?.process, comparison.id).toBe(comparison.process);
      // quick mode: the minimum of two pairs, each side timed once per pair
      expect(comparison.pairs, comparison.id).toBeGreaterThanOrEqual(2);
      expect(comparison.subjectNs, comparison.id).toBeGreaterThan(0);
      expect(comparison.referenceNs, comparison.id).toBeGreaterThan(0);
      expect(comparison.ratio, comparison.id).toBeGreaterThan(0);
      expect(comparison.ratioQuartiles[0], comparison.id).toBeLessThanOrEqual(comparison.ratioQuartiles[1]);
      expect(Number.isFinite(comparison.overNs), comparison.id).toBe(true);
      expect(stdout).toContain(`| ${comparison.id} `);
    }
    // each timed target reads its comparison in every process that measured it (the first is the
    // timed world's own, the table's), one value per process, and is judged on their median
    const processes = report.pairedByProcess as (typeof paired)[];
    expect(processes.length).toBeGreaterThanOrEqual(2);
    expect(processes[0]).toEqual(paired.filter((comparison) => comparison.process !== 'peers'));
    for (const results of processes) {
      expect(results.map((comparison) => comparison.id)).toEqual(processes[0]?.map((comparison) => comparison.id));
    }
    const target = (id: string) =>
      (report.targets as { id: string; value: number; pooled: number[]; pooledOver: string }[]).find(
        (t) => t.id === id,
      );
    const ofEach = (id: string, field: 'ratio' | 'overNs') =>
      processes.map((results) => results.find((comparison) => comparison.id === id)?.[field]);
    expect(target('no-sdk-async')?.pooled).toEqual(ofEach('no-sdk/async/otel-no-sdk-vs-bare/x1', 'overNs'));
    expect(target('sdk-vs-floor-async-10000')?.pooled).toEqual(ofEach('sdk/async/otel-sdk-vs-floor/x10000', 'ratio'));
    expect(target('signals-on-vs-off-repeated')?.pooled).toEqual(
      ofEach('sdk/async/signals-on-repeated-vs-signals-off-repeated/x1', 'ratio'),
    );
    const strings = ofEach('capture/async/capture-10mb-string-vs-capture-cap-string/x1', 'ratio');
    const records = ofEach('capture/async/capture-10mb-records-vs-capture-cap-records/x1', 'ratio');
    expect(target('capture-10mb-vs-cap')?.pooled).toEqual(strings.map((v, k) => Math.max(v ?? 0, records[k] ?? 0)));
    expect(target('no-sdk-async')?.pooledOver).toBe('processes');
    expect(stdout).toContain("The per-call targets' values in each process");
  });

  it('runs the peers on the shared SDK, or says why their rows are skipped', () => {
    const { peers } = JSON.parse(readFileSync(jsonFile, 'utf8'));
    if (peers.status === 'skipped') {
      expect(peers.reason).toMatch(/\S/);
      // skipped for want of an install is allowed; installed peers whose process fails are a broken bench
      expect(peers.reason).not.toMatch(/^the peers' process failed/);
      expect(stdout).toContain(`Peers: SKIPPED (${peers.reason})`);
      return;
    }
    expect(peers.status).toBe('measured');
    expect(Object.keys(peers.versions)).toEqual(
      expect.arrayContaining(['@arizeai/openinference-core', '@traceloop/node-server-sdk', '@langfuse/tracing']),
    );
    // every library's spans reached the one SDK: the peers used the same @opentelemetry/api
    for (const scope of [
      'otel-tool-calls',
      'bench-floor',
      'openinference-core',
      '@traceloop/node-server-sdk',
      'langfuse-sdk',
    ]) {
      expect(peers.exportedSpansByScope[scope], scope).toBeGreaterThan(0);
    }
  });

  it('reports the bytes allocated per call of the main cases, each from windows without a collection', () => {
    const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
    const allocations = report.allocations as { id: string; bytesPerCall: number; windows: number[] }[];
    const expected = [
      ...['bare', 'empty-listener', 'otel-no-sdk', 'otel-no-sdk-report'].flatMap((kind) => [
        `no-sdk/sync/${kind}/x1`,
        `no-sdk/async/${kind}/x1`,
      ]),
      ...['bare', 'empty-listener', 'otel-sdk', 'floor'].flatMap((kind) => [
        `sdk/sync/${kind}/x1`,
        `sdk/async/${kind}/x1`,
      ]),
      'sdk/async/composite-3-empty/x1',
      'sdk/async/composite-otel-counting-empty/x1',
      ...SIGNAL_KINDS.map((kind) => `sdk/async/${kind}/x1`),
      ...(report.peers.status === 'measured' ? peerRowIds() : []),
    ];
    expect(allocations.map((row) => row.id).sort()).toEqual(expected.sort());
    for (const row of allocations) {
      expect(row.windows.length, row.id).toBeGreaterThan(0);
      // a call the JIT has optimized may allocate nothing at all; never less
      expect(row.bytesPerCall, row.id).toBeGreaterThanOrEqual(0);
    }
    expect(stdout).toContain('Bytes allocated per call');
  });

  it('checks that the span and the histogram sample share their start and end times', () => {
    const { sharedTimes } = JSON.parse(readFileSync(jsonFile, 'utf8'));
    expect(sharedTimes.checks.map((check: { tool: string }) => check.tool)).toEqual(['async', 'sync']);
    // not a timing: the two come from the same two clock readings, whatever the machine's load
    for (const check of sharedTimes.checks) {
      expect(check.spanDurationNs).toBeGreaterThan(0);
      expect(check.met, JSON.stringify(check)).toBe(true);
    }
  });

  it('starts every case of the startup group as a whole process, timed and weighed, against the bare app, on this Node and each installed one', () => {
    const { startup, targets } = JSON.parse(readFileSync(jsonFile, 'utf8'));
    const installed = ['22', '24', '26'].filter((major) =>
      existsSync(join(root, 'runtimes', 'node_modules', `node${major}`, 'bin', 'node')),
    );
    expect(startup.runtimes.map((result: { runtime: { id: string } }) => result.runtime.id)).toEqual([
      `node${process.versions.node.split('.')[0]}`,
      ...installed.map((major) => `node${major}`),
    ]);
    for (const { runtime, rows } of startup.runtimes) {
      expect(rows.map((row: { id: string }) => row.id)).toEqual([
        'bare',
        'register',
        'setup',
        'floor',
        'floor-bundled',
        'esm-hook',
        'hooks-thread',
        'peer',
      ]);
      for (const row of rows) {
        expect(row.runs, `${runtime.id} ${row.id}`).toHaveLength(startup.rounds);
        expect(row.cpuMs, `${runtime.id} ${row.id}`).toBeGreaterThan(0);
        expect(row.peakRssMb, `${runtime.id} ${row.id}`).toBeGreaterThan(0);
        expect(row.cpuRatios).toHaveLength(startup.rounds);
      }
      expect(rows[0].cpuVsBare).toBe(1);
      // each startup target reads the register row's per-round ratios, pooled
      for (const kind of ['cpu', 'rss', 'vs-floor-cpu', 'vs-floor-rss']) {
        const target = targets.find(
          (candidate: { id: string }) => candidate.id === `startup-register-${kind}-${runtime.id}`,
        );
        expect(target.band.samples, `${runtime.id} ${kind}`).toBe(startup.rounds);
      }
      const register = rows[1];
      const floor = rows[3];
      const vsFloor = targets.find(
        (candidate: { id: string }) => candidate.id === `startup-register-vs-floor-cpu-${runtime.id}`,
      );
      expect(vsFloor.pooled).toEqual(
        register.runs.map((run: { cpuMs: number }, round: number) => run.cpuMs / floor.runs[round].cpuMs),
      );
    }
    expect(stdout).toContain(`Startup on Node ${process.versions.node} (whole process, /usr/bin/time`);
  });

  it('compares pushing the tool metrics over OTLP with serving /metrics, per call (the export included, every export checked) and at start, as ratios push ÷ pull with their intervals', () => {
    const { metricsPaths } = JSON.parse(readFileSync(jsonFile, 'utf8'));
    const { perCall, atStart } = metricsPaths;
    expect(perCall.paths.map((path: { id: string }) => path.id)).toEqual(['pull', 'push-protobuf', 'push-json']);
    for (const path of perCall.paths) {
      for (const field of [
        'nsPerCall',
        'callsNsPerCall',
        'exportNs',
        'payloadBytes',
        'bytesPerCall',
        'bytesPerExport',
      ]) {
        expect(path[field], `${path.id} ${field}`).toBeGreaterThan(0);
      }
      // the export's share is its CPU over the calls of a batch, and is part of the call's figure
      expect(path.exportShareNs).toBeCloseTo(path.exportNs / perCall.callsPerBatch, 6);
      expect(stdout).toContain(`| ${path.id} `);
    }
    // the scrape carries the Prometheus text of the same series the pushes encode: the larger payload
    const payload = (id: string) => perCall.paths.find((path: { id: string }) => path.id === id).payloadBytes;
    expect(payload('pull')).toBeGreaterThan(payload('push-protobuf'));
    expect(
      perCall.comparisons.map((c: { subject: string; reference: string }) => `${c.subject} ÷ ${c.reference}`),
    ).toEqual(['push-protobuf ÷ pull', 'push-json ÷ pull']);
    // a ratio per round of each process, pooled in process order: push ÷ pull of the same round's batches
    const perCallNs = (batches: { callsNs: number[]; exportNs: number[] }) =>
      batches.callsNs.map((ns, round) => (ns + (batches.exportNs[round] as number)) / perCall.callsPerBatch);
    for (const comparison of perCall.comparisons) {
      const expected = (
        perCall.batchesByProcess as Record<string, { callsNs: number[]; exportNs: number[] }>[]
      ).flatMap((batches) => {
        const pulled = perCallNs(batches.pull as { callsNs: number[]; exportNs: number[] });
        return perCallNs(batches[comparison.subject] as { callsNs: number[]; exportNs: number[] }).map(
          (ns, round) => ns / (pulled[round] as number),
        );
      });
      expect(comparison.perCallRatios).toEqual(expected);
      expect(comparison.perCall.samples).toBe(perCall.processes * perCall.roundsPerProcess);
      expect(comparison.perCall.low).toBeLessThanOrEqual(comparison.perCall.median);
      expect(comparison.perCall.median).toBeLessThanOrEqual(comparison.perCall.high);
      expect(comparison.perExportRatios).toHaveLength(comparison.perCall.samples);
      expect(comparison.bytesPerCall).toBeGreaterThan(0);
      expect(stdout).toContain(`  ${comparison.subject} ÷ pull, per call: `);
    }
    // at start: the app bare, then setup and register with each path, every round checked to have
    // pushed (or not pushed) the tool's metrics over OTLP as its path says
    expect(atStart.runtime.version).toBe(process.versions.node);
    expect(atStart.rows.map((row: { id: string }) => row.id)).toEqual([
      'bare',
      'setup-otlp',
      'setup-prometheus',
      'register-otlp',
      'register-prometheus',
    ]);
    for (const row of atStart.rows) {
      expect(row.runs, row.id).toHaveLength(atStart.rounds);
      expect(row.cpuMs, row.id).toBeGreaterThan(0);
      expect(row.peakRssMb, row.id).toBeGreaterThan(0);
    }
    const runs = (id: string) => atStart.rows.find((row: { id: string }) => row.id === id).runs;
    for (const [comparison, subject, reference] of [
      [atStart.comparisons[0], 'setup-otlp', 'setup-prometheus'],
      [atStart.comparisons[1], 'register-otlp', 'register-prometheus'],
    ]) {
      expect([comparison.subject, comparison.reference]).toEqual([subject, reference]);
      expect(comparison.cpuRatios).toEqual(
        runs(subject).map((run: { cpuMs: number }, round: number) => run.cpuMs / runs(reference)[round].cpuMs),
      );
      expect(comparison.rss.samples).toBe(atStart.rounds);
      expect(stdout).toContain(`  ${subject} ÷ ${reference}: CPU `);
    }
    expect(stdout).toContain('Metrics paths: pushing OTLP against serving /metrics');
    expect(stdout).toContain(`Metrics paths at start on Node ${process.versions.node}`);
  });

  it('weighs a call in flight against the floor, and times the MCP round trip over stdio against the bare one', () => {
    const { inFlight, mcpRoundTrip } = JSON.parse(readFileSync(jsonFile, 'utf8'));
    expect(inFlight.listenerBytesPerCall).toBeGreaterThan(0);
    expect(inFlight.floorBytesPerCall).toBeGreaterThan(0);
    expect(inFlight.ratios).toHaveLength(inFlight.pairs);
    // three servers: no SDK, the SDK without instrumentation, observed
    expect(mcpRoundTrip.noSdkNs).toBeGreaterThan(0);
    expect(mcpRoundTrip.sdkNs).toBeGreaterThan(0);
    expect(mcpRoundTrip.observedNs).toBeGreaterThan(0);
    expect(mcpRoundTrip.ratios).toHaveLength(mcpRoundTrip.pairs);
    expect(mcpRoundTrip.noSdkRatios).toHaveLength(mcpRoundTrip.pairs);
    expect(stdout).toContain('Memory per call in flight');
    expect(stdout).toContain('MCP tools/call round trip over stdio');
  });

  it('keeps every call of the exporter-down run free of errors, with its heap measured', () => {
    const { memory } = JSON.parse(readFileSync(jsonFile, 'utf8'));
    expect(memory.calls).toBe(20_000);
    expect(memory.caller).toEqual({
      rejected: 0,
      wrongResults: 0,
      unhandledRejections: 0,
      uncaughtExceptions: 0,
      firstError: '',
    });
    expect(memory.heapBeforeBytes).toBeGreaterThan(0);
    expect(memory.heapAfterBytes).toBeGreaterThan(0);
    expect(memory.peakRssBytes).toBeGreaterThan(memory.heapAfterBytes);
    expect(memory.heapSamples.length).toBeGreaterThan(0);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
