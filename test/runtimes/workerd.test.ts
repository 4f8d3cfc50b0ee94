import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedRequest, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { builtPackageExists, type ExportedSpan, metricsOf, spansOf } from '../register/run-app.js';
import { runtimesInstalled } from './runtimes.js';
import { type RunningWorker, startWorker } from './workerd.js';

// The worker (test/runtimes/fixtures/workerd) bundled with esbuild from the built entry points,
// served by workerd (runtimes/), its spans and metrics POSTed over fetch in ctx.waitUntil to an
// OTLP/JSON receiver on 127.0.0.1. Without nodejs_compat there is no AsyncLocalStorage: the
// worker uses a synchronous context manager, whose limits the spans' parents show (docs/deploy/workers.md).

// a workerd child and a bundle on a busy shared machine: a generous bound
const TIMEOUT = 120_000;
const ready = runtimesInstalled() && builtPackageExists();

type Receiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

/** The spans and the duration histogram's samples a request's flush exported, once they have arrived. */
async function exported(receiver: Receiver, toolName: string) {
  const samples = (requests: readonly ReceivedRequest[]) =>
    metricsOf(requests)
      .filter((metric) => metric.name === 'gen_ai.execute_tool.duration')
      .flatMap((metric) => metric.points.filter((point) => point['gen_ai.tool.name'] === toolName));
  const toolSpans = (requests: readonly ReceivedRequest[]) =>
    spansOf(requests).filter((span) => span.attributes['gen_ai.tool.name'] === toolName);
  await receiver.waitUntil(
    (requests) => toolSpans(requests).length > 0 && samples(requests).length > 0,
    TIMEOUT / 2,
    `spans and samples of ${toolName}`,
  );
  const spans = spansOf(receiver.requests);
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  return {
    spans,
    samples: samples(receiver.requests),
    /** The name of a span's parent, `undefined` for a root span. */
    parentOf: (span: ExportedSpan | undefined) =>
      span?.parentSpanId === undefined ? undefined : (byId.get(span.parentSpanId)?.name ?? 'not exported'),
  };
}

for (const nodejsCompat of [true, false]) {
  describe.skipIf(!ready)(`workerd, ${nodejsCompat ? 'with' : 'without'} nodejs_compat`, () => {
    let receiver: Receiver;
    let worker: RunningWorker;
    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      worker = await startWorker({ nodejsCompat, bindings: { OTLP_ENDPOINT: receiver.url } });
    }, TIMEOUT);
    afterAll(async () => {
      await worker?.stop();
      await receiver?.close();
    });

    const get = async (path: string) => {
      const response = await fetch(`${worker.url}${path}`);
      return { status: response.status, body: await response.json() };
    };

    it(
      'the listener: a wrapped tool call is a child of the request span, exported over fetch in waitUntil',
      async () => {
        expect(await get('/listener')).toEqual({ status: 200, body: { result: 5 } });
        const { spans, samples, parentOf } = await exported(receiver, 'add');
        const span = spans.find((candidate) => candidate.name === 'execute_tool add');
        expect({ callId: span?.attributes['gen_ai.tool.call.id'], parent: parentOf(span) }).toEqual({
          callId: 'call_add',
          parent: 'handle request',
        });
        expect(samples).toHaveLength(1);
      },
      TIMEOUT,
    );

    it(
      nodejsCompat
        ? '/ai-sdk: generateText calls the wrapped tool, its span a child of ai.toolCall'
        : '/ai-sdk: generateText calls the wrapped tool; without AsyncLocalStorage its span has no parent (the context is lost at the AI SDK awaits)',
      async () => {
        expect(await get('/ai-sdk')).toEqual({ status: 200, body: { result: 'getWeather:text' } });
        const { spans, samples, parentOf } = await exported(receiver, 'getWeather');
        const span = spans.find((candidate) => candidate.name === 'execute_tool getWeather');
        const toolCall = spans.find((candidate) => candidate.name === 'ai.toolCall');
        expect({
          callId: span?.attributes['gen_ai.tool.call.id'],
          parent: parentOf(span),
          aiToolCallParent: parentOf(toolCall),
        }).toEqual(
          nodejsCompat
            ? { callId: 'call_weather', parent: 'ai.toolCall', aiToolCallParent: 'ai.generateText' }
            : { callId: 'call_weather', parent: undefined, aiToolCallParent: undefined },
        );
        expect(samples).toHaveLength(1);
      },
      TIMEOUT,
    );

    it(
      '/mcp: the server span of a tool call is a child of the client span (through _meta), the client span of the request span',
      async () => {
        expect(await get('/mcp')).toEqual({ status: 200, body: { result: 'sunny in Oslo' } });
        const { spans, samples, parentOf } = await exported(receiver, 'forecast');
        const calls = spans.filter((candidate) => candidate.name === 'tools/call forecast');
        // OTLP's span kinds: 2 server, 3 client
        const client = calls.find((span) => span.kind === 3);
        const server = calls.find((span) => span.kind === 2);
        expect({
          requestIds: [client?.attributes['jsonrpc.request.id'], server?.attributes['jsonrpc.request.id']],
          client: parentOf(client),
          server: server?.parentSpanId === client?.spanId ? 'the client span' : parentOf(server),
        }).toEqual({ requestIds: ['1', '1'], client: 'handle request', server: 'the client span' });
        expect(samples).toHaveLength(1);
      },
      TIMEOUT,
    );
  });
}
