import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { afterEach, describe, expect, it } from 'vitest';
import { otlpAttributes, startOtlpReceiver } from '../helpers/otlp-receiver.js';

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>> | undefined;
afterEach(async () => {
  await receiver?.close();
});

describe('OTLP/HTTP export', () => {
  it('sends execute_tool spans through the real OTLP/HTTP exporter in the wire format Jaeger takes', async () => {
    receiver = await startOtlpReceiver();
    const tracerProvider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'wire-test' }),
      spanProcessors: [
        new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }) }),
      ],
    });
    const listener = new OpenTelemetryToolCallListener({
      tracerProvider,
      errorPolicy: 'report',
      agentName: 'wire-agent',
    });
    const search = functionToolCallback({ name: 'search' }, async (q: string) => `found ${q}`);
    const failing = functionToolCallback({ name: 'email' }, async () => {
      throw Object.assign(new Error('smtp down'), { code: 'ESMTP' });
    });
    await ToolCallListeners.wrap(search, listener).call('otel', { toolCallId: 'call_1' });
    await ToolCallListeners.wrap(failing, listener).call(undefined, { toolCallId: 'call_2' });
    await tracerProvider.forceFlush();

    const request = await receiver.waitFor('/v1/traces');
    expect(request.contentType).toContain('application/json');
    const payload = JSON.parse(request.body.toString('utf8'));
    const resource = otlpAttributes(payload.resourceSpans[0].resource.attributes);
    expect(resource['service.name']).toBe('wire-test');
    const scopeSpans = payload.resourceSpans[0].scopeSpans[0];
    expect(scopeSpans.scope.name).toBe('otel-tool-calls');
    const spans = scopeSpans.spans as Array<{
      name: string;
      kind: number;
      attributes: never;
      status: { code?: number; message?: string };
    }>;
    expect(spans.map((span) => span.name)).toEqual(['execute_tool search', 'execute_tool email']);
    expect(spans[0]?.kind).toBe(1); // SPAN_KIND_INTERNAL
    expect(otlpAttributes(spans[0]?.attributes)).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.agent.name': 'wire-agent',
    });
    expect(otlpAttributes(spans[1]?.attributes)).toMatchObject({
      'error.type': 'ESMTP',
      'tool_call.error.outcome': 'reported',
    });
    expect(spans[1]?.status).toEqual({ code: 2, message: 'smtp down' }); // STATUS_CODE_ERROR
    await tracerProvider.shutdown();
  });
});
