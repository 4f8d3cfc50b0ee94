/**
 * MCP's observing cost without the pipes: clients and servers in this process over the SDK's
 * InMemoryTransport, the real SDK registered (bench/lib/sdk-world.ts), four pairs (bare, only the
 * client observed, only the server, both) timed in rotating batches of CPU time, so that each side's
 * share shows. Bundle it (bench/lib/bundle.ts) and run it under `node --cpu-prof` to profile one
 * pair alone (`--only both`).
 *
 *   node <bundle.mjs> [--seconds 10] [--calls 200] [--only bare|client|server|both]
 */
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { instrumentClient, instrumentServer } from '../../src/adapters/mcp/index.js';
import { OpenTelemetryToolCallListener } from '../../src/index.js';
import { cpuNs, median } from '../lib/sampling.js';
import { installSdk } from '../lib/sdk-world.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    calls: { type: 'string', default: '200' },
    only: { type: 'string' },
  },
});
const KINDS = ['bare', 'client', 'server', 'both'] as const;
type Kind = (typeof KINDS)[number];
const kinds = values.only === undefined ? KINDS : KINDS.filter((kind) => kind === values.only);
installSdk();

async function connect(kind: Kind): Promise<Client> {
  const bareServer = new McpServer({ name: 'weather', version: '1.0.0' });
  const server =
    kind === 'server' || kind === 'both'
      ? instrumentServer(bareServer, new OpenTelemetryToolCallListener())
      : bareServer;
  server.registerTool('weather', { description: 'w', inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [{ type: 'text' as const, text: `${city.length}` }],
  }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return kind === 'client' || kind === 'both' ? instrumentClient(client, new OpenTelemetryToolCallListener()) : client;
}

const clients = new Map<Kind, Client>();
for (const kind of kinds) clients.set(kind, await connect(kind));
const calls = Number(values.calls);
const ns = new Map<Kind, number[]>(kinds.map((kind) => [kind, []]));
async function batch(kind: Kind): Promise<number> {
  const client = clients.get(kind) as Client;
  const begin = cpuNs();
  for (let i = 0; i < calls; i++) await client.callTool({ name: 'weather', arguments: { city: 'Lisbon' } });
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
const bare = ns.get('bare');
for (const kind of kinds) {
  const own = ns.get(kind) as number[];
  const ratio = bare === undefined ? '' : `  × bare ${median(own.map((v, i) => v / (bare[i] as number))).toFixed(2)}`;
  console.log(`${kind.padEnd(6)} ${(median(own) / 1000).toFixed(1)} µs/call (${own.length} batches)${ratio}`);
}
process.exit(0);
