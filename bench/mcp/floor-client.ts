import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type Attributes,
  context,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * The client half of the MCP round trip's floor (bench/mcp-round-trip.ts): what an observed client
 * records per `tools/call`, written by hand with @opentelemetry/api and the MCP SDK, nothing of this
 * package. One CLIENT span `tools/call {tool}` with the attributes the adapter records (its request
 * id from the message sent), the call sent inside the span's context with that context injected into
 * `params._meta` by the global propagator, the span's end, and the two histogram samples of its
 * duration (`gen_ai.execute_tool.duration`, `mcp.client.operation.duration`; the same two
 * `performance.now()` readings for all three). A failure is the span's status and `error.type`.
 * Its transport is hooked once before `connect`: the negotiated protocol version and each request's
 * JSON-RPC id are only seen there on a 1.x client over stdio.
 */

const TOOL_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const MCP_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export interface FloorClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult>;
}

/** Hooks `transport` (before `client.connect(transport)`) and returns the traced `callTool`. */
export function floorClient(client: Client, transport: Transport): FloorClient {
  // its own scope, so that the instruments do not collide with the observed client's in this process
  const tracer = trace.getTracer('bench-mcp-floor');
  const meter = metrics.getMeter('bench-mcp-floor');
  const toolDuration = meter.createHistogram('gen_ai.execute_tool.duration', {
    unit: 's',
    description: 'Duration of tool call operations (GenAI semantic conventions, execute_tool)',
    advice: { explicitBucketBoundaries: TOOL_BUCKETS },
  });
  const operationDuration = meter.createHistogram('mcp.client.operation.duration', {
    unit: 's',
    description:
      'Duration of MCP requests as the client sees them, from sending to the response (MCP semantic conventions)',
    advice: { explicitBucketBoundaries: MCP_BUCKETS },
  });

  let protocolVersion = '';
  // the 1.x Client tells a transport that has this method the version `initialize` settled on
  (transport as Transport & { setProtocolVersion?: (version: string) => void }).setProtocolVersion = (version) => {
    protocolVersion = version;
  };
  // the SDK sends a request synchronously inside `callTool`: the span of the call being sent
  let sending: Span | undefined;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (sending !== undefined && 'id' in message) {
      sending.setAttribute('jsonrpc.request.id', String(message.id));
      sending = undefined;
    }
    return send(message, options);
  };

  return {
    async callTool(params) {
      const name = params.name;
      const attributes: Attributes = {
        'gen_ai.tool.type': 'extension',
        'mcp.method.name': 'tools/call',
        'mcp.protocol.version': protocolVersion,
        'network.transport': 'pipe',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
      };
      const startTime = performance.now();
      const parent = context.active();
      const span = tracer.startSpan(`tools/call ${name}`, { kind: SpanKind.CLIENT, attributes, startTime }, parent);
      const spanContext = trace.setSpan(parent, span);
      const meta: Record<string, string> = {};
      propagation.inject(spanContext, meta);
      let errorType: string | undefined;
      try {
        sending = span;
        const result = (await context.with(spanContext, () =>
          client.callTool({ name, arguments: params.arguments, _meta: meta }),
        )) as CallToolResult;
        if (result.isError === true) errorType = 'tool_error';
        return result;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        errorType = typeof code === 'number' ? String(code) : ((error as Error | null)?.name ?? 'Error');
        throw error;
      } finally {
        sending = undefined;
        const endTime = performance.now();
        const metricAttributes: Attributes = {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': name,
          'gen_ai.operation.name': 'execute_tool',
          'mcp.protocol.version': protocolVersion,
          'network.transport': 'pipe',
        };
        if (errorType !== undefined) {
          span.setAttribute('error.type', errorType);
          span.setStatus({ code: SpanStatusCode.ERROR });
          metricAttributes['error.type'] = errorType;
        }
        span.end(endTime);
        const seconds = (endTime - startTime) / 1000;
        toolDuration.record(seconds, { 'gen_ai.tool.name': name, 'gen_ai.tool.type': 'extension' });
        operationDuration.record(seconds, metricAttributes);
      }
    },
  };
}
