/**
 * The load the collector group sends: OTLP/protobuf export requests of agent runs, each run one trace as an
 * app instrumented with otel-tool-calls exports it. A run is an `invoke_agent` span, then model calls
 * (`chat`, made here by hand as a framework's instrumentation would) alternating with tool calls, whose
 * `execute_tool` spans the package's own listener makes on the real SDK; a run that fails has one tool
 * call that throws (the listener's ERROR span: the gateways' error policy keeps it).
 *
 * The spans are made once and encoded once, by the SDK's own OTLP serializer, with a placeholder trace ID
 * per run of the request; a sender then writes fresh trace IDs at those offsets for each request, so that
 * sending costs a copy, not an encoding (the senders must not be the bottleneck on two cores).
 */
import { context, SpanKind, trace } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';

export interface TemplateShape {
  /** Spans per trace (one agent run): the `invoke_agent` span and as many model and tool calls as follow. */
  readonly spansPerTrace: number;
  /** Runs per export request (a BatchSpanProcessor exports up to 512 spans at once). */
  readonly tracesPerRequest: number;
  /** Every `errorEvery`-th run of a request fails (runs errorEvery − 1, 2 × errorEvery − 1, …): 20 is one in twenty. */
  readonly errorEvery: number;
}

export interface RequestTemplate extends TemplateShape {
  /** The encoded ExportTraceServiceRequest, placeholder trace IDs in it. */
  readonly body: Buffer;
  /** For each run of the request, the offsets of its spans' trace ID bytes in `body`. */
  readonly traceIdOffsets: readonly (readonly number[])[];
  /** Runs of a request that fail. */
  readonly errorTraces: number;
}

const RESOURCE = resourceFromAttributes({
  'service.name': 'tool-calls-agent',
  'service.version': '1.4.2',
  'deployment.environment.name': 'bench',
  'telemetry.sdk.language': 'nodejs',
  'telemetry.sdk.name': 'opentelemetry',
  'telemetry.sdk.version': '2.12.0',
});

/** The spans of one agent run, ended, as the SDK hands them to an exporter. */
async function agentRun(spansPerTrace: number, fails: boolean): Promise<ReadableSpan[]> {
  if (spansPerTrace < 2) throw new Error(`a run has its agent span and at least one call: ${spansPerTrace} spans`);
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ resource: RESOURCE, spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('trip-planner-agent', '1.4.2');
  const listener = new OpenTelemetryToolCallListener({ tracerProvider: provider });
  const calls = spansPerTrace - 1;
  const lastTool = calls % 2 === 0 ? calls - 1 : calls - 2;
  const root = tracer.startSpan('invoke_agent trip-planner', {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'trip-planner',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4.1',
    },
  });
  await context.with(trace.setSpan(context.active(), root), async () => {
    for (let call = 0; call < calls; call++) {
      if (call % 2 === 0) {
        tracer
          .startSpan('chat gpt-4.1', {
            kind: SpanKind.CLIENT,
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': 'openai',
              'gen_ai.request.model': 'gpt-4.1',
              'gen_ai.response.model': 'gpt-4.1-2025-04-14',
              'gen_ai.response.id': `chatcmpl-${call}`,
              'gen_ai.response.finish_reasons': [call + 1 < calls ? 'tool_calls' : 'stop'],
              'gen_ai.usage.input_tokens': 1200 + call * 150,
              'gen_ai.usage.output_tokens': 90,
              'server.address': 'api.openai.com',
              'server.port': 443,
            },
          })
          .end();
      } else {
        const failing = fails && call === lastTool;
        const tool = ToolCallListeners.wrap(
          functionToolCallback(
            { name: 'get_weather', description: 'Current weather for a city' },
            async (input: { city: string }) => {
              if (failing) throw new Error('weather service timed out');
              return { city: input.city, celsius: 21 };
            },
          ),
          listener,
        );
        await tool.call({ city: 'Lisbon' }, { toolCallId: `call_${call}` }).catch(() => undefined);
      }
    }
  });
  root.end();
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  if (spans.length !== spansPerTrace) throw new Error(`an agent run made ${spans.length} spans, not ${spansPerTrace}`);
  return spans;
}

/** A run's placeholder trace ID: twelve fixed bytes, then its index in the request. */
function placeholder(run: number): Buffer {
  const id = Buffer.from('a55aa55a5aa55aa5c33cc33c00000000', 'hex');
  id.writeUInt32BE(run, 12);
  return id;
}

/** `span` with another trace ID (its own and its parent's). */
function inTrace(span: ReadableSpan, traceId: string): ReadableSpan {
  const parent = span.parentSpanContext;
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => ({ ...span.spanContext(), traceId }),
    parentSpanContext: parent === undefined ? undefined : { ...parent, traceId },
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: span.attributes,
    links: span.links,
    events: span.events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

export async function requestTemplate(shape: TemplateShape): Promise<RequestTemplate> {
  const succeeding = await agentRun(shape.spansPerTrace, false);
  const failing = await agentRun(shape.spansPerTrace, true);
  const fails = (run: number) => run % shape.errorEvery === shape.errorEvery - 1;
  const spans: ReadableSpan[] = [];
  for (let run = 0; run < shape.tracesPerRequest; run++) {
    const traceId = placeholder(run).toString('hex');
    spans.push(...(fails(run) ? failing : succeeding).map((span) => inTrace(span, traceId)));
  }
  const encoded = ProtobufTraceSerializer.serializeRequest(spans);
  if (!encoded) throw new Error('the OTLP serializer encoded nothing');
  const body = Buffer.from(encoded);
  const traceIdOffsets = Array.from({ length: shape.tracesPerRequest }, (_, run) => {
    const id = placeholder(run);
    const offsets: number[] = [];
    for (let at = body.indexOf(id); at !== -1; at = body.indexOf(id, at + id.length)) offsets.push(at);
    if (offsets.length !== shape.spansPerTrace) {
      throw new Error(`run ${run}'s trace ID is in the request ${offsets.length} times, not ${shape.spansPerTrace}`);
    }
    return offsets;
  });
  const errorTraces = Array.from({ length: shape.tracesPerRequest }, (_, run) => run).filter(fails).length;
  return { ...shape, body, traceIdOffsets, errorTraces };
}

const MASK_64 = (1n << 64n) - 1n;

/**
 * A sequence number scrambled by a bijection of 64 bits (splitmix64's finalizer): distinct numbers stay
 * distinct, and the low 56 bits look random, as W3C trace IDs' are. They must: the tail sampler's
 * probabilistic policy reads its randomness there (a sequence number there would sample nothing).
 */
function scrambled(sequence: number): bigint {
  let z = BigInt(sequence);
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  return z ^ (z >> 31n);
}

/**
 * Trace IDs of a sender: its 8-byte prefix (the run of the bench, the measurement and the sender), then its
 * sequence number scrambled, so that every run of every sender has its own and the sink can tell them from
 * anything else.
 */
export function writeTraceIds(template: RequestTemplate, body: Buffer, prefix: Buffer, firstSequence: number): void {
  template.traceIdOffsets.forEach((offsets, run) => {
    const low = scrambled(firstSequence + run);
    for (const at of offsets) {
      prefix.copy(body, at);
      body.writeBigUInt64BE(low, at + 8);
    }
  });
}
