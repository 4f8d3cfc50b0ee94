import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SIGNALS_OFF } from '../../bench/lib/signals-off.js';
import { floorClient } from '../../bench/mcp/floor-client.js';
import { floorServer } from '../../bench/mcp/floor-server.js';
import { instrumentClient, instrumentServer } from '../../src/adapters/mcp/index.js';
import { OpenTelemetryToolCallListener } from '../../src/index.js';
import { useGlobalTestSdk } from '../helpers/global-test-sdk.js';

// The MCP round trip's floor (bench/mcp/floor-*.ts) is only a floor if it records what the observed
// client and server record: one round trip each, in one process over linked in-memory transports
// given the stdio transports' shape (the adapter then records `network.transport: pipe`, as over
// stdio), compared span by span and histogram by histogram, each side's scope apart.

const { spans, metricExporter, reader } = useGlobalTestSdk();

const DESCRIPTION = 'Current weather of a city';
const weather = async ({ city }: { city: string }): Promise<CallToolResult> => ({
  content: [{ type: 'text', text: `${city.length}` }],
});

/** Linked in-memory transports shaped as stdio's are (a client's `pid` and `stderr`, a server's `_stdin` and `_stdout`). */
function stdioShapedPair() {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  Object.assign(clientSide, { pid: null, stderr: null });
  Object.assign(serverSide, { _stdin: null, _stdout: null });
  return { serverSide, clientSide };
}

async function observedRoundTrip(): Promise<void> {
  const { serverSide, clientSide } = stdioShapedPair();
  const server = instrumentServer(
    new McpServer({ name: 'weather', version: '1.0.0' }),
    new OpenTelemetryToolCallListener(SIGNALS_OFF),
  );
  server.registerTool('weather', { description: DESCRIPTION, inputSchema: { city: z.string() } }, weather);
  await server.connect(serverSide);
  const client = instrumentClient(
    new Client({ name: 'bench', version: '1.0.0' }),
    new OpenTelemetryToolCallListener(SIGNALS_OFF),
  );
  await client.connect(clientSide);
  expect(await client.callTool({ name: 'weather', arguments: { city: 'Lisbon' } })).toEqual(
    await weather({ city: 'Lisbon' }),
  );
  await Promise.all([client.close(), server.close()]);
}

async function floorRoundTrip(): Promise<void> {
  const { serverSide, clientSide } = stdioShapedPair();
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  const floor = floorServer();
  server.registerTool(
    'weather',
    { description: DESCRIPTION, inputSchema: { city: z.string() } },
    floor.traced('weather', DESCRIPTION, weather),
  );
  floor.watch(serverSide);
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const traced = floorClient(client, clientSide);
  await client.connect(clientSide);
  expect(await traced.callTool({ name: 'weather', arguments: { city: 'Lisbon' } })).toEqual(
    await weather({ city: 'Lisbon' }),
  );
  await Promise.all([client.close(), server.close()]);
}

/** The `tools/call` spans of one scope, as compared: ids replaced by who is whose parent. */
function toolCallSpans(scope: string) {
  const ofScope = spans
    .getFinishedSpans()
    .filter((span) => span.instrumentationScope.name === scope && span.attributes['mcp.method.name'] === 'tools/call');
  return ofScope.map((span) => {
    const parent = ofScope.find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);
    return {
      name: span.name,
      kind: span.kind,
      attributes: span.attributes,
      status: span.status,
      events: span.events,
      links: span.links,
      parentKind: parent?.kind,
      sameTrace: parent === undefined || parent.spanContext().traceId === span.spanContext().traceId,
    };
  });
}

/** Each operation histogram of one scope: its descriptor, buckets, and each point's attributes and count. */
async function histograms(scope: string) {
  await reader.forceFlush();
  const scopes = metricExporter.getMetrics().at(-1)?.scopeMetrics ?? [];
  const found = scopes.find((candidate) => candidate.scope.name === scope)?.metrics ?? [];
  return Object.fromEntries(
    // the session durations are recorded once a session, at close: not part of a round trip
    found
      .filter((metric) => !metric.descriptor.name.endsWith('.session.duration'))
      .map((metric) => [
        metric.descriptor.name,
        {
          unit: metric.descriptor.unit,
          description: metric.descriptor.description,
          points: metric.dataPoints
            .filter((point) => point.attributes['mcp.method.name'] !== 'initialize')
            .filter((point) => point.attributes['mcp.method.name'] !== 'notifications/initialized')
            .map((point) => ({
              attributes: point.attributes,
              count: (point.value as Histogram).count,
              boundaries: (point.value as Histogram).buckets.boundaries,
            })),
        },
      ]),
  );
}

describe('the MCP round trip floor', () => {
  beforeAll(async () => {
    await observedRoundTrip();
    await floorRoundTrip();
  });

  it('records the spans the observed client and server record: names, kinds, attributes, status, the server a child of the client', () => {
    const observed = toolCallSpans('otel-tool-calls');
    const floor = toolCallSpans('bench-mcp-floor');
    expect(observed.map((span) => span.parentKind)).toEqual([2, undefined]); // the server's parent: the client's span
    expect(observed.every((span) => span.sameTrace)).toBe(true);
    expect(floor).toEqual(observed);
  });

  it('records the histogram samples the observed client and server record: instruments, units, buckets, attributes', async () => {
    const observed = await histograms('otel-tool-calls');
    const floor = await histograms('bench-mcp-floor');
    expect(Object.keys(observed).sort()).toEqual([
      'gen_ai.execute_tool.duration',
      'mcp.client.operation.duration',
      'mcp.server.operation.duration',
    ]);
    expect(floor).toEqual(observed);
  });
});
