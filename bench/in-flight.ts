/**
 * Memory per call in flight, the OpenTelemetry listener against the floor (bench/lib/floor.ts), on
 * the real SDK (`installSdk`): what a call keeps alive while its tool has not settled, which the
 * collector copies at every scavenge when thousands are in flight. Started by bench/run.ts, bundled,
 * with --expose-gc.
 *
 * A measurement: two full collections, `heapUsed`; 3,000 calls started on a tool that settles only
 * when released; two full collections, `heapUsed` again; the difference ÷ 3,000 is what each call in
 * flight retains (its span, context, state, the tool's own promise). Then the calls are released and
 * awaited. The listener and the floor alternate, `--pairs` times, which one goes first alternating
 * too; each pair gives a ratio, and the target reads the pooled ratios (bench/lib/band.ts).
 *
 * Usage: in-flight.ts --out <file.json> [--pairs 20]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from '../src/index.js';
import { floorAsync } from './lib/floor.js';
import { median } from './lib/sampling.js';
import { installSdk } from './lib/sdk-world.js';
import { INPUT, TOOL_CONTEXT, WEATHER_TOOL, type WeatherInput } from './lib/tools.js';

const { values } = parseArgs({ options: { out: { type: 'string' }, pairs: { type: 'string', default: '20' } } });
const pairs = Number(values.pairs);
if (!values.out || !Number.isSafeInteger(pairs) || pairs < 1)
  throw new Error('usage: in-flight.ts --out <file.json> [--pairs <n>]');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('in-flight.ts needs node --expose-gc');

export const IN_FLIGHT = 3000;

installSdk();

/** A tool whose calls settle when `release()` is called: each call in flight until then. */
function heldTool() {
  let waiting: Array<() => void> = [];
  const tool = functionToolCallback(
    WEATHER_TOOL,
    (input: WeatherInput) => new Promise<number>((resolve) => waiting.push(() => resolve(input.city.length))),
  );
  const release = () => {
    for (const settle of waiting) settle();
    waiting = [];
  };
  return { tool, release };
}

const held = heldTool();
const cases = {
  listener: ToolCallListeners.wrap(held.tool, new OpenTelemetryToolCallListener()),
  floor: floorAsync(held.tool),
};

function settledHeap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Bytes retained per call with IN_FLIGHT calls of `name` in flight. */
async function bytesPerCallInFlight(name: keyof typeof cases): Promise<number> {
  const callable = cases[name];
  const before = settledHeap();
  const calls: Promise<unknown>[] = new Array(IN_FLIGHT);
  for (let i = 0; i < IN_FLIGHT; i++) calls[i] = callable.call(INPUT, TOOL_CONTEXT);
  const during = settledHeap();
  held.release();
  await Promise.all(calls);
  return (during - before) / IN_FLIGHT;
}

// warm-up: both paths optimized, the SDK's batch queue in its steady state
for (let i = 0; i < 3; i++) {
  await bytesPerCallInFlight('listener');
  await bytesPerCallInFlight('floor');
}
const listener: number[] = [];
const floor: number[] = [];
for (let pair = 0; pair < pairs; pair++) {
  if (pair % 2 === 0) {
    listener.push(await bytesPerCallInFlight('listener'));
    floor.push(await bytesPerCallInFlight('floor'));
  } else {
    floor.push(await bytesPerCallInFlight('floor'));
    listener.push(await bytesPerCallInFlight('listener'));
  }
}
const ratios = listener.map((bytes, pair) => bytes / (floor[pair] as number));
writeFileSync(
  values.out,
  JSON.stringify({
    inFlight: IN_FLIGHT,
    pairs,
    listenerBytesPerCall: median(listener),
    floorBytesPerCall: median(floor),
    ratios,
  }),
);
