import { type Context, createContextKey } from '@opentelemetry/api';
import { MCP_HTTP_PEER_DESCRIPTION } from '../../internal/protocol.js';
import { replaceMethod } from './protocol-seam.js';

/*
 * Who sent an MCP request over HTTP, for the server span's `client.address` / `client.port` and
 * `network.protocol.version`. The SDK hands a tool the request's headers and URL only; the socket is
 * known where the Node.js request enters the SDK: a server transport's `handleRequest(req, res, body)`
 * (1.x `StreamableHTTPServerTransport`). That method is wrapped on the transport an instrumented
 * McpServer connects to, and the request is handled in a context that carries its peer. A transport
 * handed a web-standard `Request` (2.x `createMcpHandler`, the web-standard transports) has no socket:
 * there the attributes are absent.
 */

export interface HttpPeer {
  readonly address?: string;
  readonly port?: number;
  /** `1.0`, `1.1`, `2` (Node's `httpVersion`). */
  readonly protocolVersion?: string;
}

const HTTP_PEER = createContextKey(MCP_HTTP_PEER_DESCRIPTION);
const wrappedTransports = new WeakSet<object>();

/** The peer of the HTTP request the current MCP request came in, if its transport was wrapped. */
export function httpPeerOf(ctx: Context): HttpPeer | undefined {
  return ctx.getValue(HTTP_PEER) as HttpPeer | undefined;
}

/** Wraps `transport.handleRequest` (once) so that each request runs with its peer in the context. */
export function watchHttpPeers(transport: unknown, withPeer: (peer: HttpPeer, run: () => unknown) => unknown): void {
  if (transport === null || typeof transport !== 'object' || wrappedTransports.has(transport)) return;
  try {
    const replaced = replaceMethod(
      transport,
      'handleRequest',
      (handle) =>
        function handleRequestWithPeer(this: unknown, req: unknown, ...rest: unknown[]) {
          const peer = peerOf(req);
          const run = () => handle.call(this, req, ...rest);
          return peer === undefined ? run() : withPeer(peer, run);
        },
    );
    if (replaced) wrappedTransports.add(transport);
  } catch {
    // a transport that cannot be patched: its requests have no peer attributes
  }
}

/** `context.active()` with `peer`. */
export function contextWithPeer(ctx: Context, peer: HttpPeer): Context {
  return ctx.setValue(HTTP_PEER, peer);
}

/** A Node.js `IncomingMessage`'s peer: `socket.remoteAddress` / `remotePort`, `httpVersion`. */
function peerOf(req: unknown): HttpPeer | undefined {
  if (req === null || typeof req !== 'object') return undefined;
  try {
    const { socket, httpVersion } = req as {
      socket?: { remoteAddress?: unknown; remotePort?: unknown };
      httpVersion?: unknown;
    };
    if (socket === null || typeof socket !== 'object') return undefined;
    const { remoteAddress, remotePort } = socket;
    return {
      address: typeof remoteAddress === 'string' && remoteAddress.length <= 64 ? remoteAddress : undefined,
      port: typeof remotePort === 'number' && Number.isInteger(remotePort) ? remotePort : undefined,
      protocolVersion: typeof httpVersion === 'string' && /^\d(\.\d)?$/.test(httpVersion) ? httpVersion : undefined,
    };
  } catch {
    return undefined;
  }
}
