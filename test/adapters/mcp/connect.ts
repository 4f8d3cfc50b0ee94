import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A real MCP client connected to `server` over the SDK's in-memory transport. */
export async function connect(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  // the JSON-RPC ids of the tools/call requests the client sends, to compare with what listeners see
  const toolCallRequestIds: string[] = [];
  const send = clientTransport.send.bind(clientTransport);
  clientTransport.send = (message: JSONRPCMessage, options) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      toolCallRequestIds.push(String(message.id));
    }
    return send(message, options);
  };
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { client, toolCallRequestIds };
}
