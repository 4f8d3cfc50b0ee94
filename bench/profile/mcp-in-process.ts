/**
 * MCP's observing cost without the pipes: clients and servers in this process over the SDK's
 * InMemoryTransport, the real SDK registered (bench/lib/sdk-world.ts) with NodeSDK's W3C propagator,
 * five pairs (bare, only the client observed, only the server, both, and the hand-written floor of
 * both: bench/mcp/floor-*.ts) timed in rotating batches of CPU time, so that each side's share shows.
 * Bundle it (bench/lib/bundle.ts) and run it under `node --cpu-prof` to profile one pair alone
 * (`--only both`, `--only floor`), or to compare two (`--only both,floor`).
 *
 *   node <bundle.mjs> [--seconds 10] [--calls 200] [--only bare,client,server,both,floor]
 */
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { instrumentClient, instrumentServer } from '../../src/adapters/mcp/index.js';
import { OpenTelemetryToolCallListener } from '../../src/index.js';
import { cpuNs, median } from '../lib/sampling.js';
import { installPropagator, installSdk } from '../lib/sdk-world.js';
import { SIGNALS_OFF } from '../lib/signals-off.js';
import { floorClient } from '../mcp/floor-client.js';
import { floorServer } from '../mcp/floor-server.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    calls: { type: 'string', default: '200' },
    only: { type: 'string' },
  },
});
const KINDS = ['bare', 'client', 'server', 'both', 'floor'] as const;
type Kind = (typeof KINDS)[number];
const only = values.only?.split(',');
const kinds = only === undefined ? KINDS : KINDS.filter((kind) => only.includes(kind));
installSdk();
installPropagator();

type CallTool = (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;

async function connect(kind: Kind): Promise<CallTool> {
  const bareServer = new McpServer({ name: 'weather', version: '1.0.0' });
  const server =
    kind === 'server' || kind === 'both'
      ? instrumentServer(bareServer, new OpenTelemetryToolCallListener(SIGNALS_OFF))
      : bareServer;
  const floor = kind === 'floor' ? floorServer() : undefined;
  const weather = async ({ city }: { city: string }) => ({
    content: [{ type: 'text' as const, text: `${city.length}` }],
  });
  server.registerTool(
    'weather',
    { description: 'w', inputSchema: { city: z.string() } },
    floor === undefined ? weather : floor.traced('weather', 'w', weather),
  );
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  floor?.watch(serverSide);
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const tracedClient = kind === 'floor' ? floorClient(client, clientSide) : undefined;
  await client.connect(clientSide);
  if (tracedClient !== undefined) return (params) => tracedClient.callTool(params);
  const called =
    kind === 'client' || kind === 'both'
      ? instrumentClient(client, new OpenTelemetryToolCallListener(SIGNALS_OFF))
      : client;
  return (params) => called.callTool(params);
}

const clients = new Map<Kind, CallTool>();
for (const kind of kinds) clients.set(kind, await connect(kind));
const calls = Number(values.calls);
const ns = new Map<Kind, number[]>(kinds.map((kind) => [kind, []]));
async function batch(kind: Kind): Promise<number> {
  const callTool = clients.get(kind) as CallTool;
  const begin = cpuNs();
  for (let i = 0; i < calls; i++) await callTool({ name: 'weather', arguments: { city: 'Lisbon' } });
  return (cpuNs() - begin) / calls;
}
for (const kind of kinds) await batch(kind);
const until = performance.now() + Number(values.seconds) * 1000;
for (let round = 0; performance.now() < until; round++) {
  for (let k = 0; k < kinds.length; k++) {
    const kind = kinds[(round + k) % kinds.length] as Kind;
    ns.get(kind)?.push(await batch(kind));
  }
}
/** The median of `kind`'s per-round ratio to `reference`'s, when both ran. */
function ratio(kind: Kind, reference: Kind): string {
  const own = ns.get(kind) as number[];
  const base = ns.get(reference);
  return base === undefined ? '' : `  × ${reference} ${median(own.map((v, i) => v / (base[i] as number))).toFixed(2)}`;
}
for (const kind of kinds) {
  const own = ns.get(kind) as number[];
  console.log(
    `${kind.padEnd(6)} ${(median(own) / 1000).toFixed(1)} µs/call (${own.length} batches)${ratio(kind, 'bare')}${kind === 'both' ? ratio(kind, 'floor') : ''}`,
  );
}
process.exit(0);
