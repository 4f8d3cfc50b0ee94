import {
  OpenTelemetryToolCallListener,
  type ToolCallback,
  type ToolCallListener,
  ToolCallListeners,
} from 'otel-tool-calls';
import { floorAsync, floorSync } from './floor.js';
import type { BenchCase } from './measure.js';
import type { Comparison } from './paired.js';
import { signalComparisons } from './signal-cases.js';
import { SIGNALS_OFF } from './signals-off.js';
import { asyncWeatherTool, INPUT, syncWeatherTool, type WeatherInput } from './tools.js';

export const IN_FLIGHT_LEVELS = [1, 100, 10_000] as const;

type World = BenchCase['world'];

/** bare, the empty listener, and the OpenTelemetry listener on whatever the world registered. */
function wrappedCases(world: World, tool: 'async' | 'sync', inFlight: number, withFloor: boolean): BenchCase[] {
  const make = (): ToolCallback<WeatherInput, unknown> => (tool === 'async' ? asyncWeatherTool() : syncWeatherTool());
  const group = tool === 'sync' || inFlight === 1 ? 'overhead' : 'scaling';
  const otelKind = world === 'sdk' ? 'otel-sdk' : 'otel-no-sdk';
  const row = (kind: string, label: string, callable: BenchCase['callable']): BenchCase => ({
    id: `${world}/${tool}/${kind}/x${inFlight}`,
    process: world,
    group,
    world,
    tool,
    kind,
    label,
    inFlight,
    callable,
  });
  const cases = [
    row('bare', 'bare tool', make()),
    row('empty-listener', 'wrap(tool, {})', ToolCallListeners.wrap(make(), {})),
    row(
      otelKind,
      world === 'sdk' ? 'OpenTelemetry listener, real SDK' : 'OpenTelemetry listener, no SDK',
      // on the floor's work: repeats and result size are judged on their own (signal-cases.ts)
      ToolCallListeners.wrap(make(), new OpenTelemetryToolCallListener(world === 'sdk' ? SIGNALS_OFF : undefined)),
    ),
  ];
  if (withFloor) {
    const floor = tool === 'async' ? floorAsync(asyncWeatherTool()) : floorSync(syncWeatherTool());
    cases.push(row('floor', 'floor: hand-written OpenTelemetry', floor as BenchCase['callable']));
  }
  return cases;
}

/** Overhead (sync, and async with one call in flight) and scaling (async, 100 and 10,000 in flight). */
export function overheadAndScalingCases(world: World): BenchCase[] {
  const withFloor = world === 'sdk';
  return [
    ...wrappedCases(world, 'sync', 1, withFloor),
    ...IN_FLIGHT_LEVELS.flatMap((inFlight) => wrappedCases(world, 'async', inFlight, withFloor)),
    ...(world === 'no-sdk' ? reportingNoSdkCases() : []),
  ];
}

/**
 * The default policy rethrows, so with nothing registered a call is the tool's own; a listener that
 * may report observes failures, with one Promise reaction per async call: its rows beside the default's.
 */
function reportingNoSdkCases(): BenchCase[] {
  return (['sync', 'async'] as const).map((tool) => ({
    id: `no-sdk/${tool}/otel-no-sdk-report/x1`,
    process: 'no-sdk',
    group: 'overhead',
    world: 'no-sdk',
    tool,
    kind: 'otel-no-sdk-report',
    label: "OpenTelemetry listener, no SDK, errorPolicy 'report'",
    inFlight: 1,
    callable: ToolCallListeners.wrap(
      (tool === 'async' ? asyncWeatherTool() : syncWeatherTool()) as ToolCallback<WeatherInput, unknown>,
      new OpenTelemetryToolCallListener({ errorPolicy: 'report' }),
    ),
  }));
}

const KB = 1024;
const MB = 1024 * KB;

/** Prose-like text of exactly `length` characters (JSON-escaping leaves it as long). */
function text(length: number): string {
  const words = 'the tool reads the city forecast and returns a short summary for the agent ';
  return words.repeat(Math.ceil(length / words.length)).slice(0, length);
}

/** About `bytes` of JSON as an array of small records: the walk has to stop early in a structure. */
function records(bytes: number): { id: number; title: string; body: string }[] {
  const one = { id: 0, title: 'forecast', body: text(64) };
  const count = Math.ceil(bytes / JSON.stringify(one).length);
  return Array.from({ length: count }, (_, id) => ({ id, title: `forecast ${id}`, body: one.body }));
}

/**
 * Content capture on (default `maxContentLength`, 4096 characters): the arguments are serialized
 * into the span. The cost must not grow with the argument: a 10 MB one costs what one that just
 * fills the cap costs (5 KB, of each shape), since both write the same 4,096 characters. The 1 KB
 * argument writes about 1,050: its row shows what a capture under the cap costs.
 */
export function captureCases(): BenchCase[] {
  const listener = new OpenTelemetryToolCallListener({ ...SIGNALS_OFF, captureContent: true });
  const row = (kind: string, label: string, input: WeatherInput): BenchCase => ({
    id: `capture/async/${kind}/x1`,
    process: 'capture',
    group: 'capture',
    world: 'sdk',
    tool: 'async',
    kind,
    label,
    inFlight: 1,
    callable: ToolCallListeners.wrap(asyncWeatherTool(), listener),
    input,
  });
  const [bare, , otelSdk] = wrappedCases('sdk', 'async', 1, false).map((benchCase) => ({
    ...benchCase,
    id: benchCase.id.replace(/^sdk\//, 'capture/'),
    process: 'capture',
    group: 'capture' as const,
  }));
  return [
    bare as BenchCase,
    { ...(otelSdk as BenchCase), label: 'capture off (reference)' },
    row('capture-1kb', 'capture on, 1 KB argument', { city: INPUT.city, notes: text(KB) }),
    row('capture-cap-string', 'capture on, 5 KB argument, fills the cap (one string)', {
      city: INPUT.city,
      notes: text(5 * KB),
    }),
    row('capture-10mb-string', 'capture on, 10 MB argument (one string)', { city: INPUT.city, notes: text(10 * MB) }),
    row('capture-cap-records', 'capture on, 5 KB argument, fills the cap (array of records)', {
      city: INPUT.city,
      notes: records(5 * KB),
    }),
    row('capture-10mb-records', 'capture on, 10 MB argument (array of records)', {
      city: INPUT.city,
      notes: records(10 * MB),
    }),
  ];
}

/**
 * Every case of a process but its bare tool and its floor, against that floor, in pairs of batches
 * (bench/lib/paired.ts): the peers' ratios, read as the targets' are. No target reads them.
 */
export function floorComparisons(cases: readonly BenchCase[]): Comparison[] {
  const floor = cases.find((benchCase) => benchCase.kind === 'floor');
  if (floor === undefined) throw new Error('floorComparisons: no floor among the cases');
  return cases
    .filter((benchCase) => benchCase.kind !== 'bare' && benchCase.kind !== 'floor')
    .map((benchCase) => versus(benchCase.process, benchCase.tool, benchCase.kind, 'floor', benchCase.inFlight));
}

/** `subject` against `reference`, two kinds of case of one process, tool and number in flight. */
function versus(process: string, tool: 'async' | 'sync', subject: string, reference: string, inFlight = 1): Comparison {
  return {
    id: `${process}/${tool}/${subject}-vs-${reference}/x${inFlight}`,
    subject: `${process}/${tool}/${subject}/x${inFlight}`,
    reference: `${process}/${tool}/${reference}/x${inFlight}`,
  };
}

/**
 * What the targets compare, in pairs of batches (bench/lib/paired.ts): the listener against the
 * bare tool (no SDK) and against the floor (real SDK), and each 10 MB capture against the capture
 * of the same shape that just fills the cap.
 */
export function targetComparisons(process: 'no-sdk' | 'sdk' | 'capture'): Comparison[] {
  switch (process) {
    case 'no-sdk':
      return [
        versus(process, 'async', 'otel-no-sdk', 'bare'),
        versus(process, 'sync', 'otel-no-sdk', 'bare'),
        versus(process, 'async', 'empty-listener', 'bare'),
      ];
    case 'sdk':
      return [
        versus(process, 'async', 'otel-sdk', 'floor'),
        versus(process, 'sync', 'otel-sdk', 'floor'),
        // batches of about 0.4 s: their pairs disagree by ±15 %, so more of them than the time budget
        // gives (in each of the processes that measure it, bench/run.ts)
        { ...versus(process, 'async', 'otel-sdk', 'floor', 10_000), collectBetweenBatches: true, minPairs: 20 },
        ...signalComparisons(),
      ];
    case 'capture':
      return [
        versus(process, 'async', 'capture-10mb-string', 'capture-cap-string'),
        versus(process, 'async', 'capture-10mb-records', 'capture-cap-records'),
      ];
  }
}

/** `composite` of three listeners: the fan-out's cost, without and with the OpenTelemetry listener. */
export function compositeCases(): BenchCase[] {
  const counts = new Map<string, number>();
  // a typical second listener: counts calls per tool
  const counting: ToolCallListener = {
    afterCompletion(_context, toolName) {
      counts.set(toolName, (counts.get(toolName) ?? 0) + 1);
    },
  };
  const row = (kind: string, label: string, listener: ToolCallListener<unknown[]>): BenchCase => ({
    id: `sdk/async/${kind}/x1`,
    process: 'sdk',
    group: 'composite',
    world: 'sdk',
    tool: 'async',
    kind,
    label,
    inFlight: 1,
    callable: ToolCallListeners.wrap(asyncWeatherTool(), listener),
  });
  return [
    row('composite-3-empty', 'composite({}, {}, {})', ToolCallListeners.composite({}, {}, {})),
    row(
      'composite-otel-counting-empty',
      'composite(OpenTelemetry, counting, {}), real SDK',
      ToolCallListeners.composite(new OpenTelemetryToolCallListener(), counting, {}),
    ),
  ];
}

/**
 * The loader check: the same cases, run once under tsx and once as JavaScript bundled ahead of time
 * by esbuild, to show what tsx costs per call. Content capture is in it because tsx compiles with
 * esbuild's `keepNames`, which adds a `__name()` call to every named closure a call creates.
 */
export function loaderCases(loader: 'tsx' | 'compiled'): BenchCase[] {
  const capture: BenchCase = {
    ...wrappedCases('no-sdk', 'async', 1, false)[0],
    kind: 'capture-1kb',
    label: 'capture on, 1 KB argument, no SDK',
    callable: ToolCallListeners.wrap(
      asyncWeatherTool(),
      new OpenTelemetryToolCallListener({ ...SIGNALS_OFF, captureContent: true }),
    ),
    input: { city: INPUT.city, notes: text(KB) },
  } as BenchCase;
  return [...wrappedCases('no-sdk', 'sync', 1, false), ...wrappedCases('no-sdk', 'async', 1, false), capture].map(
    (benchCase) => ({
      ...benchCase,
      id: `loader-${loader}/${benchCase.tool}/${benchCase.kind}/x1`,
      process: `loader-${loader}`,
      group: 'loader',
      label: `${benchCase.label} (${loader === 'tsx' ? 'tsx' : 'esbuild bundle, plain node'})`,
    }),
  );
}

/**
 * The `peers` process's own references (bench/peers/suite.ts): bare, the OpenTelemetry listener and
 * the floor, async tool, one call in flight, on the same SDK as the peers, so that the peers' ratios
 * to the floor and the listener's are taken in one process.
 */
export function peerReferenceCases(): BenchCase[] {
  return wrappedCases('sdk', 'async', 1, true)
    .filter((benchCase) => benchCase.kind !== 'empty-listener')
    .map((benchCase) => ({
      ...benchCase,
      id: benchCase.id.replace(/^sdk\//, 'peers/'),
      process: 'peers',
      group: 'peers' as const,
    }));
}
