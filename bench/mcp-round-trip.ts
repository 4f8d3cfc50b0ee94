/**
 * MCP's per-call cost of observing, over stdio: `client.callTool` round trips to a server process,
 * an observed client (instrumentClient) to an observed server (instrumentServer, the SDK registered
 * there too) against a bare client to a bare server (no SDK in that server). Both clients live in
 * this process, which has the real SDK registered (as the `sdk` rows). Started by bench/run.ts,
 * bundled with the server (bench/mcp/server.ts).
 *
 * The two are timed in pairs of batches, alternating which goes first; a batch is `--calls` round
 * trips one after another, and its cost is the CPU time of both processes, this one's and the
 * server's (which its `cpu` tool reports before and after the batch), per round trip: the wall clock
 * of a round trip is mostly both processes waiting for a core on a loaded machine. Each pair gives a
 * ratio; the target reads the pooled ratios (bench/lib/band.ts).
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

async function connect(observed: boolean): Promise<Client> {
  const args = [values.server as string, ...(observed ? ['--observed'] : [])];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'inherit' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return observed ? instrumentClient(client, new OpenTelemetryToolCallListener()) : client;
}

const clients = { bare: await connect(false), observed: await connect(true) };

const text = (result: object) => ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

/** The server's CPU time so far, in µs. */
async function serverCpuUs(client: Client): Promise<number> {
  return Number(text(await client.callTool({ name: 'cpu', arguments: {} })));
}

/** CPU ns (this process and the server) per round trip of one batch. */
async function batch(client: Client): Promise<number> {
  const server = await serverCpuUs(client);
  const begin = cpuNs();
  for (let i = 0; i < calls; i++) {
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Lisbon' } });
    if (text(result) !== '6') throw new Error('wrong result');
  }
  const own = cpuNs() - begin;
  return (own + ((await serverCpuUs(client)) - server) * 1000) / calls;
}

// warm-up: both sides' code optimized
for (let i = 0; i < 3; i++) {
  await batch(clients.bare);
  await batch(clients.observed);
}
const bare: number[] = [];
const observed: number[] = [];
for (let pair = 0; pair < pairs; pair++) {
  if (pair % 2 === 0) {
    observed.push(await batch(clients.observed));
    bare.push(await batch(clients.bare));
  } else {
    bare.push(await batch(clients.bare));
    observed.push(await batch(clients.observed));
  }
}
await Promise.all([clients.bare.close(), clients.observed.close()]);
writeFileSync(
  values.out,
  JSON.stringify({
    pairs,
    callsPerBatch: calls,
    bareNs: median(bare),
    observedNs: median(observed),
    ratios: observed.map((ns, pair) => ns / (bare[pair] as number)),
  }),
);
