/**
 * MCP's per-call cost of observing, over stdio: `client.callTool` round trips to a server process,
 * four ways, all from this process, which has the real SDK registered (as the `sdk` rows) with
 * NodeSDK's W3C propagator:
 *
 * - `observed`: an observed client (instrumentClient) to an observed server (instrumentServer, the
 *   SDK registered there too), the per-call agent signals off (bench/lib/signals-off.ts: the floor
 *   does not record them; their own cost is the `signals-on-vs-off` target's);
 * - `floor`: the same spans, histogram samples and trace context in `params._meta`, written by hand
 *   with @opentelemetry/api and the MCP SDK (bench/mcp/floor-client.ts, floor-server.ts): what the
 *   work costs done plainly, so `observed` over this is this package's own overhead (issue 39's
 *   ≤ 1.10× target);
 * - `sdk`: a bare client to a bare server that has the same SDK registered;
 * - `none`: a bare client to a server with no SDK: `observed` over this is what tracing costs at
 *   all, the SDK's context manager and processors in the server included (the client's SDK is in
 *   this process for all four).
 *
 * They are timed in rounds of one batch each, rotating which goes first; a batch is `--calls` round
 * trips one after another, and its cost is the CPU time of both processes, this one's and the
 * server's (which its `cpu` tool reports before and after the batch), per round trip: the wall clock
 * of a round trip is mostly both processes waiting for a core on a loaded machine. Each round gives
 * the ratios; the target reads the pooled ones (bench/lib/band.ts). Started by bench/run.ts, bundled
 * with the server (bench/mcp/server.ts).
 *
 * The servers are started `--restarts` times (by default once per 34 rounds, at least three times),
 * the rounds split between them: a process's code lands in a state of its own (what V8 optimized, and
 * how), so that runs of the same code in new processes differ by more than the rounds of one process
 * do (±0.03 in the ratio); the pooled interval covers that only when the rounds come from several
 * processes, and narrows with more rounds only when they come from more processes too.
 *
 * Each start first warms every world up with `--warmup` calls (10,000), in batches in the same
 * rotating order, not kept in the rounds: a server's CPU per round trip falls for its first ten
 * thousand calls or so (about 600 µs to 100 µs here), while V8 compiles and optimizes on its
 * background threads, whose CPU the server's `cpu` tool counts; measured sooner, the rounds compare
 * how fast each world's code warms up, not what a call costs in a server that runs. The warm-up's own
 * observed ÷ floor is kept apart (`warmupFloorRatios`), not judged.
 *
 * Usage: mcp-round-trip.ts --server <server.mjs> --out <file.json> [--pairs 400] [--calls 200] [--warmup 10000] [--restarts <n>] [--worlds observed,floor]
 *
 * `--worlds` runs only some worlds (to profile one: `node --cpu-prof` here, `BENCH_MCP_SERVER_FLAGS`
 * for its server); the ratios of a world left out are empty.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { instrumentClient } from '../src/adapters/mcp/index.js';
import { OpenTelemetryToolCallListener } from '../src/index.js';
import { cpuNs, median } from './lib/sampling.js';
import { installPropagator, installSdk } from './lib/sdk-world.js';
import { SIGNALS_OFF } from './lib/signals-off.js';
import type { McpRoundTripResult } from './lib/targets.js';
import { floorClient } from './mcp/floor-client.js';

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    out: { type: 'string' },
    pairs: { type: 'string', default: '400' },
    calls: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '10000' },
    restarts: { type: 'string' },
    worlds: { type: 'string', default: 'observed,floor,sdk,none' },
  },
});
const pairs = Number(values.pairs);
const calls = Number(values.calls);
const restarts = Math.min(Number(values.restarts ?? Math.max(3, Math.ceil(pairs / 34))), pairs);
const warmupBatches = Math.ceil(Number(values.warmup) / calls);
if (!values.server || !values.out || !(pairs >= 1) || !(calls >= 1) || !(restarts >= 1) || !(warmupBatches >= 1)) {
  throw new Error(
    'usage: mcp-round-trip.ts --server <server.mjs> --out <file.json> [--pairs <n>] [--calls <n>] [--warmup <calls>] [--restarts <n>]',
  );
}
installSdk();
installPropagator();

type World = 'none' | 'sdk' | 'observed' | 'floor';
const ALL_WORLDS: readonly World[] = ['observed', 'floor', 'sdk', 'none'];
const WORLDS = ALL_WORLDS.filter((world) => values.worlds.split(',').includes(world));
if (WORLDS.length === 0) throw new Error(`--worlds takes some of ${ALL_WORLDS.join(',')}`);

type CallTool = (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>;
interface Connected {
  readonly client: Client;
  /** The world's way to call a tool. */
  readonly callTool: CallTool;
}

async function connect(world: World): Promise<Connected> {
  // BENCH_MCP_SERVER_FLAGS: node flags for the servers, e.g. `--cpu-prof --cpu-prof-dir=<dir>` to profile them
  const flags = (process.env.BENCH_MCP_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const args = [...flags, values.server as string, '--world', world];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'inherit' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const floor = world === 'floor' ? floorClient(client, transport) : undefined;
  await client.connect(transport);
  if (floor !== undefined) return { client, callTool: (params) => floor.callTool(params) };
  const called =
    world === 'observed' ? instrumentClient(client, new OpenTelemetryToolCallListener(SIGNALS_OFF)) : client;
  return { client, callTool: (params) => called.callTool(params) };
}

let connected = {} as Partial<Record<World, Connected>>;

const text = (result: unknown) => ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

/** The server's CPU time so far, in µs. */
async function serverCpuUs(client: Client): Promise<number> {
  return Number(text(await client.callTool({ name: 'cpu', arguments: {} })));
}

const perWorld = (): Record<World, number[]> => ({ observed: [], floor: [], sdk: [], none: [] });
/** Each batch's CPU ns per round trip in the server alone (the rest is this process's). */
const serverShare = perWorld();

/** CPU ns (this process and the server) per round trip of one batch. */
async function batch(world: World): Promise<number> {
  const { client, callTool } = connected[world] as Connected;
  const serverBegin = await serverCpuUs(client);
  const begin = cpuNs();
  for (let i = 0; i < calls; i++) {
    const result = await callTool({ name: 'weather', arguments: { city: 'Lisbon' } });
    if (text(result) !== '6') throw new Error('wrong result');
  }
  const own = cpuNs() - begin;
  const server = ((await serverCpuUs(client)) - serverBegin) * 1000;
  serverShare[world].push(server / calls);
  return (own + server) / calls;
}

/** One batch of every world, `order` choosing which goes first (each goes first, second, … equally often). */
async function rotation(order: number, into: Record<World, number[]>): Promise<void> {
  for (let k = 0; k < WORLDS.length; k++) {
    const world = WORLDS[(order + k) % WORLDS.length] as World;
    into[world].push(await batch(world));
  }
}

const ns = perWorld();
const warmupNs = perWorld();
let round = 0;
for (let started = 0; started < restarts; started++) {
  connected = {};
  for (const world of WORLDS) connected[world] = await connect(world);
  for (let i = 0; i < warmupBatches; i++) await rotation(i, warmupNs);
  for (const world of WORLDS) serverShare[world].length = ns[world].length;
  // this set of servers' share of the rounds
  for (const end = Math.round((pairs * (started + 1)) / restarts); round < end; round++) await rotation(round, ns);
  await Promise.all(WORLDS.map((world) => connected[world]?.client.close()));
}
const ratios = (subject: World, reference: World, of = ns) =>
  of[reference].length === 0 ? [] : of[subject].map((value, i) => value / (of[reference][i] as number));
const result: McpRoundTripResult = {
  pairs,
  callsPerBatch: calls,
  warmupCalls: warmupBatches * calls,
  noSdkNs: median(ns.none),
  sdkNs: median(ns.sdk),
  floorNs: median(ns.floor),
  observedNs: median(ns.observed),
  serverNs: {
    none: median(serverShare.none),
    sdk: median(serverShare.sdk),
    floor: median(serverShare.floor),
    observed: median(serverShare.observed),
  },
  floorRatios: ratios('observed', 'floor'),
  ratios: ratios('observed', 'sdk'),
  noSdkRatios: ratios('observed', 'none'),
  floorOverSdkRatios: ratios('floor', 'sdk'),
  warmupFloorRatios: ratios('observed', 'floor', warmupNs),
};
writeFileSync(values.out, JSON.stringify(result));
