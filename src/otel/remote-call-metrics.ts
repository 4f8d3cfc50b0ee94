import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import type { ToolCallInfo } from '../tool-call-listener.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  MCP_OPERATION_DURATION_BUCKETS,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_CLIENT_SESSION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
} from './semconv.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from './stable-semconv.js';

/*
 * The protocol's own duration metric of a call that crosses a process boundary (MCP:
 * `mcp.client.operation.duration` on the client, `mcp.server.operation.duration` on the server),
 * recorded beside `gen_ai.execute_tool.duration`: the same duration, the side in the name, the
 * conventions' buckets and attributes. Its attributes are an allow-list of the span's: never the
 * session id, the request id or the tool's input (cardinality).
 */

/** The span attributes the MCP operation metrics keep, by side (the conventions' lists). */
const MCP_COMMON: readonly string[] = [
  ATTR_MCP_METHOD_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_ERROR_TYPE,
  ATTR_RPC_RESPONSE_STATUS_CODE,
];
const MCP_CLIENT: readonly string[] = [...MCP_COMMON, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT];
/** The same lists as sets: `picked` walks the span's few attributes, not the list's many names. */
const MCP_COMMON_SET: ReadonlySet<string> = new Set(MCP_COMMON);
const MCP_CLIENT_SET: ReadonlySet<string> = new Set(MCP_CLIENT);
/** The session metrics' attributes (the conventions' lists): no method, tool or prompt. */
const SESSION_COMMON: readonly string[] = [
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_ERROR_TYPE,
];
const SESSION_CLIENT: readonly string[] = [...SESSION_COMMON, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT];
const SESSION_COMMON_SET: ReadonlySet<string> = new Set(SESSION_COMMON);
const SESSION_CLIENT_SET: ReadonlySet<string> = new Set(SESSION_CLIENT);

export type McpSide = 'client' | 'server';

interface RemoteHistograms {
  readonly client: Histogram;
  readonly server: Histogram;
  readonly clientSession: Histogram;
  readonly serverSession: Histogram;
}

const histogramsByMeter = new WeakMap<Meter, RemoteHistograms>();

function histogramsOf(meter: Meter): RemoteHistograms {
  let histograms = histogramsByMeter.get(meter);
  if (histograms === undefined) {
    const advice = { explicitBucketBoundaries: [...MCP_OPERATION_DURATION_BUCKETS] };
    histograms = {
      client: meter.createHistogram(METRIC_MCP_CLIENT_OPERATION_DURATION, {
        unit: 's',
        description:
          'Duration of MCP requests as the client sees them, from sending to the response (MCP semantic conventions)',
        advice,
      }),
      server: meter.createHistogram(METRIC_MCP_SERVER_OPERATION_DURATION, {
        unit: 's',
        description:
          'Duration of MCP requests as the server sees them, from receiving to the result (MCP semantic conventions)',
        advice,
      }),
      clientSession: meter.createHistogram(METRIC_MCP_CLIENT_SESSION_DURATION, {
        unit: 's',
        description: 'The duration of the MCP session as observed on the MCP client (MCP semantic conventions)',
        advice,
      }),
      serverSession: meter.createHistogram(METRIC_MCP_SERVER_SESSION_DURATION, {
        unit: 's',
        description: 'The duration of the MCP session as observed on the MCP server (MCP semantic conventions)',
        advice,
      }),
    };
    histogramsByMeter.set(meter, histograms);
  }
  return histograms;
}

/** The side of a call whose protocol has a duration metric of its own (MCP), read once; else none. */
export function mcpSideOf(call: ToolCallInfo): McpSide | undefined {
  try {
    // a remote with throwing getters records no protocol metric
    const remote = call.remote;
    if (remote?.protocol !== 'mcp') return undefined;
    const side = remote.side;
    return side === 'client' || side === 'server' ? side : undefined;
  } catch {
    return undefined;
  }
}

/** An MCP operation's `mcp.{side}.operation.duration` sample, its attributes picked from the span's. */
export function recordMcpOperationDuration(
  meter: Meter,
  side: McpSide,
  seconds: number,
  spanAttributes: Attributes,
): void {
  recordMcpOperationSample(meter, side, seconds, mcpOperationAttributes(side, spanAttributes));
}

/** The attributes of an MCP operation's duration sample: the allow-listed ones of its span's. */
export function mcpOperationAttributes(side: McpSide, spanAttributes: Attributes): Attributes {
  return picked(spanAttributes, side === 'client' ? MCP_CLIENT_SET : MCP_COMMON_SET);
}

/** An `mcp.{side}.operation.duration` sample with its attributes as they are (`mcpOperationAttributes`). */
export function recordMcpOperationSample(meter: Meter, side: McpSide, seconds: number, attributes: Attributes): void {
  histogramsOf(meter)[side].record(seconds, attributes);
}

/** An MCP session's `mcp.{side}.session.duration` sample, its attributes picked from the session's. */
export function recordMcpSessionDuration(meter: Meter, side: McpSide, seconds: number, attributes: Attributes): void {
  const histograms = histogramsOf(meter);
  const histogram = side === 'client' ? histograms.clientSession : histograms.serverSession;
  histogram.record(seconds, picked(attributes, side === 'client' ? SESSION_CLIENT_SET : SESSION_COMMON_SET));
}

/**
 * The attributes of `from` whose keys `keep` has, in the order `from` has them. A span has fewer
 * attributes than the lists have names: looking each name up missed on most, each miss a walk of
 * the object's prototype chain.
 */
function picked(from: Attributes, keep: ReadonlySet<string>): Attributes {
  const attributes: Attributes = {};
  for (const key in from) {
    if (!keep.has(key)) continue;
    const value = from[key];
    if (value !== undefined) attributes[key] = value;
  }
  return attributes;
}
