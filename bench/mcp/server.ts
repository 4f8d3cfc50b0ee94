// The MCP server of the round-trip row (bench/mcp-round-trip.ts), over stdio: one tool that answers
// at once. `--world none`: nothing registered (the API's no-ops); `sdk`: the real SDK registered
// (bench/lib/sdk-world.ts), the server not instrumented; `observed`: the SDK and instrumentServer;
// `floor`: the SDK and the same telemetry written by hand (bench/mcp/floor-server.ts). The worlds
// with the SDK have NodeSDK's W3C propagator, as the client has.
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { instrumentServer } from '../../src/adapters/mcp/index.js';
import { OpenTelemetryToolCallListener } from '../../src/index.js';
import { installPropagator, installSdk } from '../lib/sdk-world.js';
import { SIGNALS_OFF } from '../lib/signals-off.js';
import { floorServer } from './floor-server.js';

const WORLDS = ['none', 'sdk', 'observed', 'floor'];
const { values } = parseArgs({ options: { world: { type: 'string', default: 'none' } } });
const world = values.world as string;
if (!WORLDS.includes(world)) throw new Error(`usage: server.ts --world ${WORLDS.join('|')}`);
if (world !== 'none') {
  installSdk();
  installPropagator();
}
const bare = new McpServer({ name: 'weather', version: '1.0.0' });
const server = world === 'observed' ? instrumentServer(bare, new OpenTelemetryToolCallListener(SIGNALS_OFF)) : bare;
const floor = world === 'floor' ? floorServer() : undefined;
const description = 'Current weather of a city';
const weather = async ({ city }: { city: string }): Promise<CallToolResult> => ({
  content: [{ type: 'text' as const, text: `${city.length}` }],
});
server.registerTool(
  'weather',
  { description, inputSchema: { city: z.string() } },
  floor === undefined ? weather : floor.traced('weather', description, weather),
);
// this process's CPU time so far (µs, user + system): the client adds it to its own per batch
bare.registerTool('cpu', { description: "The server's CPU time" }, async () => {
  const { user, system } = process.cpuUsage();
  return { content: [{ type: 'text' as const, text: String(user + system) }] };
});
process.stdin.on('end', () => process.exit(0));
const transport = new StdioServerTransport();
floor?.watch(transport);
await server.connect(transport);
