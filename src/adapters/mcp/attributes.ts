import {
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  GEN_AI_TOOL_TYPE_VALUE_EXTENSION,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
} from '../../otel/semconv.js';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_CLIENT_PORT,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  NETWORK_TRANSPORT_VALUE_PIPE,
  NETWORK_TRANSPORT_VALUE_TCP,
} from '../../otel/stable-semconv.js';
import type { HttpPeer } from './http-peer.js';
import { transportShapeOf } from './protocol-seam.js';

/** What one side knows of the session a call belongs to; every field optional. */
export interface McpSessionFacts {
  readonly sessionId?: unknown;
  readonly protocolVersion?: unknown;
  /** The transport object (client or server side): stdio is `pipe`, Streamable HTTP is `tcp`. */
  readonly transport?: unknown;
  /** Set when the request came over HTTP (the server sees its headers). */
  readonly overHttp?: boolean;
  /** Server side: who sent the HTTP request, where the transport knows (http-peer.ts). */
  readonly peer?: HttpPeer;
}

/** The span attributes MCP adds to every tool call (OpenTelemetry MCP semantic conventions). */
export function mcpAttributes(facts: McpSessionFacts = {}): Readonly<Record<string, string | number>> {
  const attributes: Record<string, string | number> = {
    [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_VALUE_EXTENSION,
    [ATTR_MCP_METHOD_NAME]: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
  };
  addSessionAttributes(attributes, facts);
  return attributes;
}

/**
 * `mcpAttributes` of a session's calls, made once while the facts stay the same (a session gives the
 * same facts call after call): one frozen object, which the listener recognizes and reads once
 * (docs/decisions.md, "A session's attributes made once"). Other facts (another session, the
 * version negotiated later, the peer of another HTTP request) make a new one. One per observed
 * client or tool.
 */
export class SessionAttributes {
  private facts: McpSessionFacts | undefined;
  private attributes: Readonly<Record<string, string | number>> = {};

  of(
    sessionId: unknown,
    protocolVersion: unknown,
    transport: unknown,
    overHttp?: boolean,
    peer?: HttpPeer,
  ): Readonly<Record<string, string | number>> {
    const last = this.facts;
    if (
      last === undefined ||
      last.sessionId !== sessionId ||
      last.protocolVersion !== protocolVersion ||
      last.transport !== transport ||
      last.overHttp !== overHttp ||
      last.peer !== peer
    ) {
      this.facts = { sessionId, protocolVersion, transport, overHttp, peer };
      this.attributes = Object.freeze(mcpAttributes(this.facts));
    }
    return this.attributes;
  }
}

/** The session's attributes (session id, protocol version, network, peer), added to `attributes`. */
export function addSessionAttributes(attributes: Record<string, string | number>, facts: McpSessionFacts): void {
  const { sessionId, protocolVersion } = facts;
  if (typeof sessionId === 'string' && sessionId.length > 0) attributes[ATTR_MCP_SESSION_ID] = sessionId;
  if (isProtocolVersion(protocolVersion)) attributes[ATTR_MCP_PROTOCOL_VERSION] = protocolVersion;
  const network = networkOf(facts.transport, facts.overHttp === true);
  if (network.transport !== undefined) attributes[ATTR_NETWORK_TRANSPORT] = network.transport;
  // Streamable HTTP is the one tcp transport: MCP over HTTP
  if (network.transport === NETWORK_TRANSPORT_VALUE_TCP) attributes[ATTR_NETWORK_PROTOCOL_NAME] = 'http';
  const { peer } = facts;
  if (peer !== undefined) {
    if (peer.protocolVersion !== undefined) attributes[ATTR_NETWORK_PROTOCOL_VERSION] = peer.protocolVersion;
    if (peer.address !== undefined) {
      attributes[ATTR_CLIENT_ADDRESS] = peer.address;
      if (peer.port !== undefined) attributes[ATTR_CLIENT_PORT] = peer.port;
    }
  }
  if (network.address !== undefined) {
    attributes[ATTR_SERVER_ADDRESS] = network.address;
    if (network.port !== undefined) attributes[ATTR_SERVER_PORT] = network.port;
  }
}

/** How MCP names its revisions: a date. */
const PROTOCOL_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A `YYYY-MM-DD` protocol version. The value comes from the peer (the version a 2.x client sends
 * with each request, the `mcp-protocol-version` header, the version the server negotiated), and
 * `mcp.protocol.version` is an attribute of the MCP duration metrics: any other value is dropped, or
 * a client sending a new version with each request would make a new metric series with each request.
 */
export function isProtocolVersion(value: unknown): value is string {
  if (value === lastVersion) return true; // a session asks for one version, call after call
  if (typeof value !== 'string' || value.length !== 10 || !PROTOCOL_VERSION.test(value)) return false;
  lastVersion = value;
  return true;
}

/** The last value `isProtocolVersion` accepted: one comparison instead of a regular expression per call. */
let lastVersion: string | undefined;

interface Network {
  transport?: string;
  address?: string;
  port?: number;
}

/** The transport's network attributes (protocol-seam.ts tells it by its shape); none for an unknown one, rather than a wrong one. */
function networkOf(transport: unknown, overHttp: boolean): Network {
  if (overHttp) return { transport: NETWORK_TRANSPORT_VALUE_TCP };
  const shape = transportShapeOf(transport);
  if (shape === undefined) return {};
  if (shape.kind === 'stdio') return { transport: NETWORK_TRANSPORT_VALUE_PIPE };
  const url = shape.url;
  if (url === undefined) return { transport: NETWORK_TRANSPORT_VALUE_TCP };
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : undefined);
  return { transport: NETWORK_TRANSPORT_VALUE_TCP, address: url.hostname.replace(/^\[|\]$/g, ''), port };
}
