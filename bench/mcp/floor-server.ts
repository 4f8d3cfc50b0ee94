import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Attributes, context, metrics, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The server half of the MCP round trip's floor (bench/mcp-round-trip.ts): what an observed server
 * records per `tools/call`, written by hand with @opentelemetry/api and the MCP SDK, nothing of this
 * package. The tool's callback wrapped: the parent context extracted from the request's
 * `params._meta` by the global propagator, one SERVER span `tools/call {tool}` with the attributes
 * the adapter records, the callback run in the span's context, the span's end and the two histogram
 * samples of its duration (`gen_ai.execute_tool.duration`, `mcp.server.operation.duration`; the same
 * two `performance.now()` readings for all three). A failure (thrown, or an `isError` result) is the
 * span's status and `error.type`. The negotiated protocol version is read once, from the
 * `initialize` answer: a 1.x Server does not keep it.
 */

const TOOL_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const MCP_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

interface Extra {
  readonly requestId: string | number;
  readonly _meta?: Record<string, unknown>;
}

type ToolCallback<Args> = (args: Args, extra: Extra) => Promise<CallToolResult>;

export interface FloorServer {
  /** `callback` traced as the tool `name` (its `description` on the span). */
  traced<Args>(name: string, description: string, callback: ToolCallback<Args>): ToolCallback<Args>;
  /** Hooks `transport` before `server.connect(transport)`, to read the negotiated version. */
  watch(transport: Transport): void;
}

export function floorServer(): FloorServer {
  const tracer = trace.getTracer('bench-mcp-floor');
  const meter = metrics.getMeter('bench-mcp-floor');
  const toolDuration = meter.createHistogram('gen_ai.execute_tool.duration', {
    unit: 's',
    description: 'Duration of tool call operations (GenAI semantic conventions, execute_tool)',
    advice: { explicitBucketBoundaries: TOOL_BUCKETS },
  });
  const operationDuration = meter.createHistogram('mcp.server.operation.duration', {
    unit: 's',
    description:
      'Duration of MCP requests as the server sees them, from receiving to the result (MCP semantic conventions)',
    advice: { explicitBucketBoundaries: MCP_BUCKETS },
  });
  let protocolVersion = '';

  return {
    watch(transport) {
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
        if (typeof version === 'string') {
          protocolVersion = version;
          transport.send = send; // the one answer it waited for
        }
        return send(message, options);
      };
    },
    traced(name, description, callback) {
      return async (args, extra) => {
        const startTime = performance.now();
        const parent = propagation.extract(context.active(), extra._meta ?? {});
        const attributes: Attributes = {
          'gen_ai.tool.type': 'extension',
          'mcp.method.name': 'tools/call',
          'mcp.protocol.version': protocolVersion,
          'network.transport': 'pipe',
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          'gen_ai.tool.description': description,
          'jsonrpc.request.id': String(extra.requestId),
        };
        const span = tracer.startSpan(`tools/call ${name}`, { kind: SpanKind.SERVER, attributes, startTime }, parent);
        let errorType: string | undefined;
        try {
          const result = await context.with(trace.setSpan(parent, span), callback, undefined, args, extra);
          if (result.isError === true) errorType = 'tool_error';
          return result;
        } catch (error) {
          errorType = 'tool_error'; // McpServer answers a tool that throws with an isError result
          throw error;
        } finally {
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
      };
    },
  };
}
