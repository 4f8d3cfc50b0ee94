// The MCP server of the round-trip row (bench/mcp-round-trip.ts), over stdio: one tool that answers
// at once. `--world none`: nothing registered (the API's no-ops); `sdk`: the real SDK registered
// (bench/lib/sdk-world.ts), the server not instrumented; `observed`: the SDK and instrumentServer.
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { instrumentServer } from '../../src/adapters/mcp/index.js';
import { OpenTelemetryToolCallListener } from '../../src/index.js';
import { installSdk } from '../lib/sdk-world.js';

const { values } = parseArgs({ options: { world: { type: 'string', default: 'none' } } });
const world = values.world;
if (world !== 'none' && world !== 'sdk' && world !== 'observed')
  throw new Error('usage: server.ts --world none|sdk|observed');
if (world !== 'none') installSdk();
const bare = new McpServer({ name: 'weather', version: '1.0.0' });
const server = world === 'observed' ? instrumentServer(bare, new OpenTelemetryToolCallListener()) : bare;
server.registerTool(
  'weather',
  { description: 'Current weather of a city', inputSchema: { city: z.string() } },
  async ({ city }) => ({
    content: [{ type: 'text' as const, text: `${city.length}` }],
  }),
);
// this process's CPU time so far (µs, user + system): the client adds it to its own per batch
bare.registerTool('cpu', { description: "The server's CPU time" }, async () => {
  const { user, system } = process.cpuUsage();
  return { content: [{ type: 'text' as const, text: String(user + system) }] };
});
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
