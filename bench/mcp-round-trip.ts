/**
 * MCP's per-call cost of observing, over stdio: `client.callTool` round trips to a server process,
 * three ways, all from this process, which has the real SDK registered (as the `sdk` rows):
 *
 * - `observed`: an observed client (instrumentClient) to an observed server (instrumentServer, the
 *   SDK registered there too);
 * - `sdk`: a bare client to a bare server that has the same SDK registered: what this package
 *   alone adds is `observed` over this (issue 25's ≤ 1.05× target);
 * - `none`: a bare client to a server with no SDK: `observed` over this is what tracing costs at
 *   all, the SDK's context manager and processors in the server included (the client's SDK is in
 *   this process for all three).
 *
 * They are timed in triples of batches, rotating which goes first; a batch is `--calls` round trips
 * one after another, and its cost is the CPU time of both processes, this one's and the server's
 * (which its `cpu` tool reports before and after the batch), per round trip: the wall clock of a
 * round trip is mostly both processes waiting for a core on a loaded machine. Each triple gives the
 * two ratios; the target reads the pooled ones (bench/lib/band.ts). Started by bench/run.ts, bundled
 * with the server (bench/mcp/server.ts).
 *
 * Usage: mcp-round-trip.ts --server <server.mjs> --out <file.json> [--pairs 30] [--calls 200]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { instrumentClient } from '../src/adapters/mcp/index.js';
import { OpenTelemetryToolCallListener } from '../src/index.js';
import { cpuNs, median } from './lib/sampling.js';
import { installSdk } from './lib/sdk-world.js';

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    out: { type: 'string' },
    pairs: { type: 'string', default: '30' },
    calls: { type: 'string', default: '200' },
  },
});
const pairs = Number(values.pairs);
const calls = Number(values.calls);
if (!values.server || !values.out || !(pairs >= 1) || !(calls >= 1)) {
  throw new Error('usage: mcp-round-trip.ts --server <server.mjs> --out <file.json> [--pairs <n>] [--calls <n>]');
}
installSdk();

type World = 'none' | 'sdk' | 'observed';
const WORLDS: readonly World[] = ['observed', 'sdk', 'none'];

async function connect(world: World): Promise<Client> {
  // BENCH_MCP_SERVER_FLAGS: node flags for the servers, e.g. `--cpu-prof --cpu-prof-dir=<dir>` to profile them
  const flags = (process.env.BENCH_MCP_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const args = [...flags, values.server as string, '--world', world];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'inherit' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return world === 'observed' ? instrumentClient(client, new OpenTelemetryToolCallListener()) : client;
}

const clients: Record<World, Client> = {
  observed: await connect('observed'),
  sdk: await connect('sdk'),
  none: await connect('none'),
};

const text = (result: object) => ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

/** The server's CPU time so far, in µs. */
async function serverCpuUs(client: Client): Promise<number> {
  return Number(text(await client.callTool({ name: 'cpu', arguments: {} })));
}

/** Each batch's CPU ns per round trip in the server alone (the rest is this process's). */
const serverShare: Record<World, number[]> = { observed: [], sdk: [], none: [] };

/** CPU ns (this process and the server) per round trip of one batch. */
async function batch(world: World): Promise<number> {
  const client = clients[world];
  const serverBegin = await serverCpuUs(client);
  const begin = cpuNs();
  for (let i = 0; i < calls; i++) {
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Lisbon' } });
    if (text(result) !== '6') throw new Error('wrong result');
  }
  const own = cpuNs() - begin;
  const server = ((await serverCpuUs(client)) - serverBegin) * 1000;
  serverShare[world].push(server / calls);
  return (own + server) / calls;
}

// warm-up: every side's code optimized
for (let i = 0; i < 3; i++) {
  for (const world of WORLDS) await batch(world);
}
for (const world of WORLDS) serverShare[world].length = 0;
const ns: Record<World, number[]> = { observed: [], sdk: [], none: [] };
for (let triple = 0; triple < pairs; triple++) {
  // each world goes first, second and third equally often
  for (let k = 0; k < WORLDS.length; k++) {
    const world = WORLDS[(triple + k) % WORLDS.length] as World;
    ns[world].push(await batch(world));
  }
}
await Promise.all(WORLDS.map((world) => clients[world].close()));
const ratios = (reference: World) => ns.observed.map((observed, i) => observed / (ns[reference][i] as number));
writeFileSync(
  values.out,
  JSON.stringify({
    pairs,
    callsPerBatch: calls,
    noSdkNs: median(ns.none),
    sdkNs: median(ns.sdk),
    observedNs: median(ns.observed),
    /** The server's part of each: median CPU ns per round trip in the server process. */
    serverNs: { none: median(serverShare.none), sdk: median(serverShare.sdk), observed: median(serverShare.observed) },
    /** observed ÷ sdk per triple: this package alone. */
    ratios: ratios('sdk'),
    /** observed ÷ none per triple: tracing at all. */
    noSdkRatios: ratios('none'),
  }),
);
