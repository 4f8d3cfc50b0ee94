import { propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_CLIENT_PORT,
  ATTR_ERROR_TYPE,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions';
import type { ToolCallListener } from 'otel-tool-calls';
import { instrumentClient } from 'otel-tool-calls/mcp';
import {
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_RPC_RESPONSE_STATUS_CODE,
} from 'otel-tool-calls/semconv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { otlpAttributes, startOtlpReceiver } from '../../helpers/otlp-receiver.js';
import { PROPAGATOR_KEYS, type PropagatorName, propagatorNamed } from './propagators.js';
import {
  type SdkName,
  type ServerProcess,
  startServerProcess,
  type TransportName,
  withDeadline,
} from './server-process.js';

/*
 * One MCP call across two real processes, each with its own OpenTelemetry SDK: this test process
 * is the agent (the client, its spans in the in-memory exporter), the child is the server (its spans
 * sent over OTLP/HTTP to a receiver on 127.0.0.1). On both SDK lines, over stdio and Streamable HTTP.
 */

const telemetry = useTestTelemetry();
const TEST_MS = 120_000;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links?: unknown[];
}

// OTLP/JSON span kinds are the proto enum: 0 unspecified, 1 internal, 2 server, 3 client
const OTLP_SERVER = 2;

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let server: ServerProcess | undefined;

beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await receiver.close();
});

function receivedSpans(): OtlpSpan[] {
  return receiver.requests
    .filter((request) => request.path === '/v1/traces')
    .flatMap((request) => JSON.parse(request.body.toString()).resourceSpans ?? [])
    .flatMap((resource: { scopeSpans?: { spans?: OtlpSpan[] }[] }) => resource.scopeSpans ?? [])
    .flatMap((scope: { spans?: OtlpSpan[] }) => scope.spans ?? []);
}

/** The `_meta` of each `tools/call` the client's transport sends, as it goes on the wire. */
function captureMeta(client: unknown): unknown[] {
  const sent: unknown[] = [];
  const transport = (
    client as { transport: { send: (message: Record<string, unknown>, ...rest: unknown[]) => unknown } }
  ).transport;
  const send = transport.send.bind(transport);
  transport.send = (message, ...rest) => {
    if (message.method === 'tools/call') {
      sent.push(JSON.parse(JSON.stringify((message.params as { _meta?: unknown } | undefined)?._meta ?? {})));
    }
    return send(message, ...rest);
  };
  return sent;
}

/** The server's first span named `name` (or with that span id), once the child has exported it (a bounded wait). */
async function serverSpan(name: string, spanId?: string): Promise<OtlpSpan> {
  return withDeadline(
    (async () => {
      for (;;) {
        const found = receivedSpans().find((span) => (spanId ? span.spanId === spanId : span.name === name));
        if (found) return found;
        await receiver.waitFor('/v1/traces').catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })(),
    30_000,
    `no server span ${name}`,
  );
}

// each line also runs with one propagator other than W3C on both sides (propagators.ts): together, all
const lines: { sdk: SdkName; transport: TransportName; propagator: PropagatorName }[] = [
  { sdk: '1.x', transport: 'stdio', propagator: 'b3multi' },
  { sdk: '1.x', transport: 'http', propagator: 'b3' },
  { sdk: '2.x', transport: 'stdio', propagator: 'jaeger' },
  { sdk: '2.x', transport: 'http', propagator: 'custom' },
];

describe.each(lines)('MCP across two processes, SDK $sdk over $transport', ({ sdk, transport, propagator }) => {
  const start = (
    instrumented = true,
    options: { propagator?: PropagatorName; clientListener?: ToolCallListener } = {},
  ) =>
    startServerProcess({ sdk, transport, otlpUrl: receiver.url, instrumented, ...options }).then((started) => {
      server = started;
      return started;
    });

  it(
    `one trace with the ${propagator} propagator registered on both sides (not W3C)`,
    async () => {
      propagation.disable();
      propagation.setGlobalPropagator(propagatorNamed(propagator));
      try {
        const { client } = await start(true, { propagator });
        instrumentClient(client as never, telemetry.listener());
        const sent = captureMeta(client);

        const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

        expect(result.content).toEqual([{ type: 'text', text: 'sunny in Oslo' }]);
        expect(Object.keys(sent.at(-1) ?? {})).toEqual(expect.arrayContaining([...PROPAGATOR_KEYS[propagator]]));
        expect(sent.at(-1)).not.toHaveProperty('traceparent');
        const clientSpan = telemetry.span('tools/call weather');
        const remote = await serverSpan('tools/call weather');
        expect([remote.traceId, remote.parentSpanId]).toEqual([
          clientSpan.spanContext().traceId,
          clientSpan.spanContext().spanId,
        ]);
      } finally {
        propagation.disable();
        propagation.setGlobalPropagator(propagatorNamed('w3c'));
      }
    },
    TEST_MS,
  );

  it(
    'tools/list, not a tool call, is a CLIENT span whose SERVER span in the other process is its child',
    async () => {
      const { client } = await start(true, { clientListener: telemetry.listener() });

      await (client as unknown as { listTools(): Promise<unknown> }).listTools();

      const clientSpan = telemetry.span('tools/list');
      const remote = await serverSpan('tools/list');
      expect([clientSpan.kind, remote.kind]).toEqual([SpanKind.CLIENT, OTLP_SERVER]);
      expect([remote.traceId, remote.parentSpanId]).toEqual([
        clientSpan.spanContext().traceId,
        clientSpan.spanContext().spanId,
      ]);
      const serverAttributes = otlpAttributes(remote.attributes as never);
      expect(serverAttributes[ATTR_MCP_METHOD_NAME]).toBe('tools/list');
      expect(serverAttributes[ATTR_JSONRPC_REQUEST_ID]).toBe(clientSpan.attributes[ATTR_JSONRPC_REQUEST_ID]);
      expect(clientSpan.attributes[ATTR_JSONRPC_REQUEST_ID]).toMatch(/^\d+$/);
      expect(serverAttributes[ATTR_NETWORK_TRANSPORT]).toBe(transport === 'stdio' ? 'pipe' : 'tcp');
    },
    TEST_MS,
  );

  it(
    'one trace: the server span is the child of the client span',
    async () => {
      // instrumented before it connects: it sees the initialize exchange (1.x over stdio keeps no version)
      const { client, port } = await start(true, { clientListener: telemetry.listener() });

      const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

      expect(result.content).toEqual([{ type: 'text', text: 'sunny in Oslo' }]);
      const clientSpan = telemetry.span('tools/call weather');
      const remote = await serverSpan('tools/call weather');
      expect(clientSpan.kind).toBe(SpanKind.CLIENT);
      expect(remote.kind).toBe(OTLP_SERVER);
      expect(remote.traceId).toBe(clientSpan.spanContext().traceId);
      expect(remote.parentSpanId).toBe(clientSpan.spanContext().spanId);

      const network = transport === 'stdio' ? 'pipe' : 'tcp';
      expect(clientSpan.attributes[ATTR_NETWORK_TRANSPORT]).toBe(network);
      const serverAttributes = otlpAttributes(remote.attributes as never);
      expect(serverAttributes[ATTR_NETWORK_TRANSPORT]).toBe(network);
      expect(serverAttributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
      expect(serverAttributes[ATTR_JSONRPC_REQUEST_ID]).toMatch(/^\d+$/);
      // the client learns the id of its request as it sends it: the same on both sides
      expect(clientSpan.attributes[ATTR_JSONRPC_REQUEST_ID]).toBe(serverAttributes[ATTR_JSONRPC_REQUEST_ID]);
      // the negotiated version on every line, stdio 1.x too (seen in the initialize exchange)
      expect(clientSpan.attributes[ATTR_MCP_PROTOCOL_VERSION]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(serverAttributes[ATTR_MCP_PROTOCOL_VERSION]).toBe(clientSpan.attributes[ATTR_MCP_PROTOCOL_VERSION]);
      const protocolName = transport === 'http' ? 'http' : undefined;
      expect(clientSpan.attributes[ATTR_NETWORK_PROTOCOL_NAME]).toBe(protocolName);
      expect(serverAttributes[ATTR_NETWORK_PROTOCOL_NAME]).toBe(protocolName);
      if (transport === 'http' && sdk === '1.x') {
        // the Node.js request's socket, where the transport is handed one (1.x StreamableHTTPServerTransport)
        expect(serverAttributes[ATTR_CLIENT_ADDRESS]).toBe('127.0.0.1');
        expect(serverAttributes[ATTR_CLIENT_PORT]).toEqual(expect.any(Number));
        expect(serverAttributes[ATTR_NETWORK_PROTOCOL_VERSION]).toBe('1.1');
      }
      if (transport === 'http') {
        expect(clientSpan.attributes[ATTR_SERVER_ADDRESS]).toBe('127.0.0.1');
        expect(clientSpan.attributes[ATTR_SERVER_PORT]).toBe(port);
        // the HTTP request the MCP request came in: linked, not the parent
        if (sdk === '1.x') {
          // a stateful Streamable HTTP session: both sides name the same one
          expect(clientSpan.attributes[ATTR_MCP_SESSION_ID]).toEqual(expect.any(String));
          expect(serverAttributes[ATTR_MCP_SESSION_ID]).toBe(clientSpan.attributes[ATTR_MCP_SESSION_ID]);
        }
        const [link] = (remote.links ?? []) as { traceId: string; spanId: string }[];
        expect(remote.links).toHaveLength(1);
        const post = await serverSpan('POST /mcp', link?.spanId);
        expect([post.name, post.kind, post.traceId]).toEqual(['POST /mcp', OTLP_SERVER, link?.traceId]);
      } else {
        expect(remote.links ?? []).toEqual([]);
      }
    },
    TEST_MS,
  );

  it(
    'an unknown tool and invalid arguments: a SERVER span, child of the client span, with the error (2.x’s -32602: its status code, the caller’s mistake), and the answer unchanged',
    async () => {
      const { client } = await start();
      instrumentClient(client as never, telemetry.listener());

      const unknown = await client.callTool({ name: 'nowhere', arguments: {} }).then(
        (result) => result,
        (error: Error) => error,
      );
      const invalid = await client.callTool({ name: 'weather', arguments: { city: 42 } });

      // 2.x answers an unknown tool with a JSON-RPC error, 1.x with an isError result
      if (sdk === '2.x') expect(unknown).toMatchObject({ code: -32602 });
      else expect(unknown).toMatchObject({ isError: true });
      expect(invalid).toMatchObject({ isError: true });
      // 2.x's -32602 is the caller's mistake: its status code, no error of the server (server-status.test.ts)
      for (const [name, type, status, spanStatus] of [
        [
          'tools/call nowhere',
          sdk === '2.x' ? undefined : 'tool_error',
          sdk === '2.x' ? '-32602' : undefined,
          sdk === '2.x' ? undefined : 2, // OTLP: unset (absent), STATUS_CODE_ERROR
        ],
        ['tools/call weather', 'tool_error', undefined, 2],
      ] as const) {
        const remote = await serverSpan(name);
        const clientSpan = telemetry.spans().find((span) => span.name === name);
        expect(remote.parentSpanId).toBe(clientSpan?.spanContext().spanId);
        const attributes = otlpAttributes(remote.attributes as never);
        expect(attributes[ATTR_ERROR_TYPE]).toBe(type);
        expect(attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBe(status);
        expect(attributes['tool_call.error.source']).toBe('model');
        expect((remote as { status?: { code?: number } }).status?.code || undefined).toBe(spanStatus);
      }
    },
    TEST_MS,
  );

  it(
    'an uninstrumented server still answers an instrumented client, whose span records the call',
    async () => {
      const { client } = await start(false);
      instrumentClient(client as never, telemetry.listener());

      const result = await client.callTool({ name: 'weather', arguments: { city: 'Lima' } });

      expect(result.content).toEqual([{ type: 'text', text: 'sunny in Lima' }]);
      expect(telemetry.span('tools/call weather').status.code).toBe(SpanStatusCode.UNSET);
    },
    TEST_MS,
  );

  it(
    'an uninstrumented client still gets its answer; the server span is a child of the ambient context only',
    async () => {
      const { client } = await start();

      const result = await client.callTool({ name: 'weather', arguments: { city: 'Pune' } });

      expect(result.content).toEqual([{ type: 'text', text: 'sunny in Pune' }]);
      const remote = await serverSpan('tools/call weather');
      // stdio: a trace of its own; HTTP: the HTTP request's span is the parent, nothing to link
      if (transport === 'http') {
        expect((await serverSpan('POST /mcp', remote.parentSpanId)).name).toBe('POST /mcp');
      } else {
        expect(remote.parentSpanId ?? '').toBe('');
      }
      expect(remote.links ?? []).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'the server killed mid-call: the client span ends with an error, exactly once',
    async () => {
      const started = await start();
      instrumentClient(started.client as never, telemetry.listener());

      // a request timeout bounds the wait where a transport does not notice the peer is gone
      const options = { timeout: 15_000 };
      // 1.x: callTool(params, resultSchema?, options?); 2.x: callTool(params, options?)
      const rest = sdk === '2.x' ? [options] : [undefined, options];
      const call = started.client.callTool({ name: 'hang', arguments: { city: 'Oslo' } }, ...rest);
      const settled = call.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      await started.stderrIncludes('hanging');
      started.kill();

      expect(await settled).toBeInstanceOf(Error);
      const spans = telemetry.spans().filter((span) => span.name === 'tools/call hang');
      expect(spans).toHaveLength(1);
      expect(spans[0]?.status.code).toBe(SpanStatusCode.ERROR);
      // what each SDK raises when the peer is gone: the connection closing (stdio); over HTTP the fetch
      // failing, or, when the kill came before the response stream began, the request timing out
      // one error.type on both SDK lines: 1.x's -32000 / -32001 are recorded by 2.x's names
      const expected = transport === 'stdio' ? ['CONNECTION_CLOSED'] : ['TypeError', 'REQUEST_TIMEOUT'];
      expect(expected).toContain(spans[0]?.attributes[ATTR_ERROR_TYPE]);
      // a failure of this side, not an error answer of the peer
      expect(spans[0]?.attributes[ATTR_RPC_RESPONSE_STATUS_CODE]).toBeUndefined();
    },
    TEST_MS,
  );
});

/*
 * OpenInference's MCP instrumentation (`@arizeai/openinference-instrumentation-mcp`, the real
 * package) as the other side: it patches the 1.x SDK's transports to carry the active context in
 * `params._meta` (its client injects, its server extracts) and makes no spans of its own. It knows
 * the 1.x SDK only.
 */
describe.each(lines.filter((line) => line.sdk === '1.x'))(
  'MCP with OpenInference on the other side, SDK $sdk over $transport',
  ({ sdk, transport }) => {
    it(
      "OpenInference's client, this package's server: one trace, the server span a child of the agent's span",
      async () => {
        const { MCPInstrumentation } = await import('@arizeai/openinference-instrumentation-mcp');
        const openInference = new MCPInstrumentation();
        const clientModules = {
          clientStdioModule: await import('@modelcontextprotocol/sdk/client/stdio.js'),
          clientStreamableHTTPModule: await import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
        };
        openInference.manuallyInstrument(clientModules as never);
        try {
          server = await startServerProcess({ sdk, transport, otlpUrl: receiver.url, instrumented: true });
          const { parent, result } = await telemetry.withParent(() =>
            server?.client.callTool({ name: 'weather', arguments: { city: 'Oslo' } }),
          );

          expect(result?.content).toEqual([{ type: 'text', text: 'sunny in Oslo' }]);
          const remote = await serverSpan('tools/call weather');
          expect([remote.traceId, remote.parentSpanId]).toEqual([
            parent.spanContext().traceId,
            parent.spanContext().spanId,
          ]);
        } finally {
          const patched = openInference as unknown as Record<string, (module: unknown) => void>;
          patched._unpatchClientStdioModule?.(clientModules.clientStdioModule);
          patched._unpatchClientStreamableHTTPModule?.(clientModules.clientStreamableHTTPModule);
        }
      },
      TEST_MS,
    );

    it(
      "this package's client, OpenInference's server: one trace, the tool's own span a child of the client span",
      async () => {
        server = await startServerProcess({
          sdk,
          transport,
          otlpUrl: receiver.url,
          instrumented: false,
          openInference: true,
          clientListener: telemetry.listener(),
        });

        const result = await server.client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });

        expect(result.content).toEqual([{ type: 'text', text: 'sunny in Oslo' }]);
        const clientSpan = telemetry.span('tools/call weather');
        const lookup = await serverSpan('forecast lookup');
        expect([lookup.traceId, lookup.parentSpanId]).toEqual([
          clientSpan.spanContext().traceId,
          clientSpan.spanContext().spanId,
        ]);
      },
      TEST_MS,
    );
  },
);
