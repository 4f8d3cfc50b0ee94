import { propagation, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { instrumentServer } from 'otel-tool-calls/mcp';
import { METRIC_MCP_SERVER_OPERATION_DURATION } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestServer } from './sdks.js';
import { toolCallSpans } from './tool-call-telemetry.js';

/*
 * A client traced by another vendor calls a server observed here: its `_meta` carries the vendor's
 * own keys, as the vendor's SDK writes them (read from their sources; see vendor-trace-context.ts),
 * and no W3C `traceparent`. The server's span continues that trace. The client is the SDK's own,
 * uninstrumented, sending the `_meta` the vendor's instrumentation adds to the request.
 */

const telemetry = useTestTelemetry();

// one 128-bit trace and one span, in each vendor's spelling
const TRACE_ID = '66e2f0a500000000ab54a98ceb1f0ad2';
const SPAN_ID = '112210f47de98115';
/** Datadog's `text_map` inject, its own style: the trace id's lower 64 bits and the span id in decimal, the upper 64 bits in `_dd.p.tid`. */
const DATADOG_STYLE = {
  'x-datadog-trace-id': '12345678901234567890', // 0xab54a98ceb1f0ad2
  'x-datadog-parent-id': '1234567890123456789', // 0x112210f47de98115
  'x-datadog-sampling-priority': '1',
  'x-datadog-tags': '_dd.p.tid=66e2f0a500000000,_dd.p.dm=-0',
};
/** Datadog's default inject styles (`datadog,tracecontext,baggage`): its own keys and W3C's, for the same span. */
const DATADOG_DEFAULT = {
  ...DATADOG_STYLE,
  traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
  tracestate: `dd=s:1;p:${SPAN_ID};t.dm:-0;t.tid:66e2f0a500000000`,
};
/** Sentry's propagator: `sentry-trace` and W3C `baggage` with its dynamic sampling context. */
const SENTRY = {
  'sentry-trace': `${TRACE_ID}-${SPAN_ID}-1`,
  baggage: `sentry-environment=production,sentry-public_key=49d0f7386ad645858ae85020e393bef3,sentry-trace_id=${TRACE_ID},sentry-sample_rate=1,sentry-sampled=true`,
};

interface Seen {
  baggage?: string[];
  traceId?: string;
}

function weatherServer(sdk: SdkLine, seen: Seen = {}): TestServer {
  const server = sdk.newServer();
  server.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }: { city: string }) => {
    seen.baggage = propagation
      .getActiveBaggage()
      ?.getAllEntries()
      .map(([key]) => key);
    seen.traceId = trace.getActiveSpan()?.spanContext().traceId;
    return { content: [{ type: 'text', text: `sunny in ${city}` }] };
  });
  return server;
}

async function callWith(sdk: SdkLine, meta: Record<string, unknown>, seen?: Seen) {
  const server = instrumentServer(weatherServer(sdk, seen) as never, telemetry.listener()) as TestServer;
  const { client } = await connectLine(sdk, server);
  const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' }, _meta: meta });
  await client.close();
  return result;
}

const serverSpan = () => toolCallSpans(telemetry).find((span) => span.kind === SpanKind.SERVER);

describe.each(SDK_LINES)("a vendor's trace context in _meta, SDK $name", (sdk) => {
  it.each([
    ["Datadog's own style (_dd_trace_context: decimal ids, _dd.p.tid)", { _dd_trace_context: DATADOG_STYLE }],
    ["Datadog's default styles (_dd_trace_context: its keys and W3C's)", { _dd_trace_context: DATADOG_DEFAULT }],
    ["Sentry's sentry-trace and baggage", SENTRY],
  ])('%s: the server span is the child of the peer’s span, in its trace', async (_vendor, meta) => {
    expect(await callWith(sdk, meta)).toMatchObject({ content: [{ type: 'text', text: 'sunny in Oslo' }] });

    const span = serverSpan();
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext).toMatchObject({ spanId: SPAN_ID, isRemote: true });
  });

  it('the tool runs in the Sentry trace, with its baggage', async () => {
    const seen: Seen = {};
    await callWith(sdk, SENTRY, seen);
    expect(seen.traceId).toBe(TRACE_ID);
    expect(seen.baggage).toEqual(expect.arrayContaining(['sentry-environment', 'sentry-trace_id', 'sentry-sampled']));
  });

  it("the peer's decision to drop the trace is kept: Datadog's priority 0 and Sentry's -0 record no span, the call is still measured", async () => {
    await callWith(sdk, { _dd_trace_context: { ...DATADOG_STYLE, 'x-datadog-sampling-priority': '0' } });
    await callWith(sdk, { 'sentry-trace': `${TRACE_ID}-${SPAN_ID}-0` });

    expect(serverSpan()).toBeUndefined();
    const samples = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
    const calls = samples.filter((point) => point.attributes['mcp.method.name'] === 'tools/call');
    expect(calls.reduce((count, point) => count + point.value.count, 0)).toBe(2);
  });

  it("a W3C traceparent (the configured propagator's) wins over a vendor's keys", async () => {
    const otherTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    await callWith(sdk, { ...SENTRY, traceparent: `00-${otherTrace}-00f067aa0ba902b7-01` });

    expect(serverSpan()?.spanContext().traceId).toBe(otherTrace);
    expect(serverSpan()?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it.each([
    ['a sentry-trace that is not one', { 'sentry-trace': 'not-a-trace' }],
    ['a sentry-trace of zeros', { 'sentry-trace': `${'0'.repeat(32)}-${SPAN_ID}-1` }],
    ['Datadog ids that are not decimal', { _dd_trace_context: { ...DATADOG_STYLE, 'x-datadog-trace-id': 'abc' } }],
    [
      'a Datadog id over 64 bits',
      { _dd_trace_context: { ...DATADOG_STYLE, 'x-datadog-parent-id': '18446744073709551616' } },
    ],
    ['a Datadog span id of 0', { _dd_trace_context: { ...DATADOG_STYLE, 'x-datadog-parent-id': '0' } }],
    ['a _dd_trace_context that is a string', { _dd_trace_context: JSON.stringify(DATADOG_STYLE) }],
  ])('%s is no parent: the call runs, its span starts a trace of its own', async (_case, meta) => {
    expect(await callWith(sdk, meta)).toMatchObject({ content: [{ type: 'text', text: 'sunny in Oslo' }] });

    const span = serverSpan();
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.spanContext().traceId).not.toBe(TRACE_ID);
    expect(span?.spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
  });
});
