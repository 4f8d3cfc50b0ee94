import type { SdkLine, TestServer } from './sdks.js';

type Message = Record<string, unknown>;

interface RawTransport {
  start(): Promise<void>;
  send(message: Message): Promise<void>;
  onmessage?: (message: Message) => void;
}

/**
 * A hand-written MCP client for `server` over the SDK's in-memory transport: it sends the JSON-RPC
 * messages it is given, as a peer that is not the SDK's `Client` can (an id of any length, any
 * `_meta`), after the `initialize` handshake. `request` resolves to the answer with the same id.
 */
export async function rawClient(sdk: SdkLine, server: TestServer) {
  const [clientSide, serverSide] = sdk.linkedPair() as [RawTransport, unknown];
  const waiting = new Map<unknown, (answer: Message) => void>();
  clientSide.onmessage = (message) => {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const request = (id: string | number, method: string, params: Message): Promise<Message> =>
    new Promise((resolve, reject) => {
      waiting.set(id, resolve);
      clientSide.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  await request(0, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-client', version: '1.0.0' },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request };
}
