import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtPackageExists } from '../register/run-app.js';
import { runtimesInstalled } from './runtimes.js';
import { type RunningWorker, startWorker } from './workerd.js';

/*
 * Cloudflare's agents package (0.32.0, installed with the runtimes) in workerd: its `wrapAISDK` traces an
 * AI SDK `generateText` in Workers native spans, `execute_tool {tool}` for each tool call, and the app's
 * tools are observed with this package's AI SDK adapter (test/runtimes/fixtures/workerd/cloudflare-agents*.mjs).
 * Native tracing is on, as in a deployment with observability on: a streaming tail worker receives the
 * native spans and prints them, read here. A native span cannot be read from inside the worker (no name,
 * no attributes), so the listener cannot recognise the framework's span and join it: each call has the
 * framework's native span and, with an OpenTelemetry SDK of the app's own, the listener's span there
 * (docs/compatibility.md).
 */

const TIMEOUT = 120_000;
const ready = runtimesInstalled() && builtPackageExists();

interface NativeSpan {
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly traceId: string;
  readonly attributes: Record<string, unknown>;
  outcome?: string;
}

/**
 * The native spans in what the tail worker printed (`TAIL {event}` lines) after `since` characters of
 * the worker's output, once every one has closed.
 */
async function nativeSpans(worker: RunningWorker, since: number): Promise<NativeSpan[]> {
  const read = () => {
    const spans = new Map<string, NativeSpan>();
    for (const line of worker.output().slice(since).split('\n')) {
      if (!line.startsWith('TAIL ')) continue;
      const { spanContext, event } = JSON.parse(line.slice(5));
      if (event.type === 'spanOpen') {
        spans.set(event.spanId, {
          name: event.name,
          spanId: event.spanId,
          parentSpanId: spanContext.spanId,
          traceId: spanContext.traceId,
          attributes: {},
        });
      }
      const span = spans.get(spanContext.spanId);
      if (span === undefined) continue;
      if (event.type === 'attributes') {
        for (const { name, value } of event.info) span.attributes[name] = value;
      }
      if (event.type === 'spanClose') span.outcome = event.outcome;
    }
    return [...spans.values()];
  };
  // tail events arrive after the response: a bounded wait (30 s) for the invocation's spans to close
  for (let attempt = 0; attempt < 300; attempt++) {
    const spans = read();
    if (spans.some((span) => span.name === 'invoke_agent') && spans.every((span) => span.outcome !== undefined)) {
      return spans;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the tail worker did not report every native span closed:\n${worker.output()}`);
}

const toolSpans = (spans: readonly NativeSpan[]) =>
  spans
    .filter((span) => span.name.startsWith('execute_tool '))
    .map((span) => ({
      name: span.name,
      toolCallId: span.attributes['gen_ai.tool.call.id'],
      errorType: span.attributes['error.type'],
    }));

/** An agents worker of the fixtures, native tracing on through the tail worker. */
const startAgentsWorker = (entry: string) =>
  startWorker({ nodejsCompat: true, bindings: {}, entry, streamingTail: 'tail-worker.mjs' });

interface AgentAnswer {
  readonly text: string;
  /** The listener's spans, in the app's own SDK (none under the bridge). */
  readonly spans?: { name: string; toolCallId: string; errorType?: string; traceId: string }[];
}

/** The app's request, its answer, and the native spans of its invocation. */
async function runAgent(worker: RunningWorker, query = '') {
  const since = worker.output().length;
  const response = await fetch(`${worker.url}/${query}`);
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return { ...(JSON.parse(body) as AgentAnswer), native: await nativeSpans(worker, since) };
}

describe.skipIf(!ready)('Cloudflare agents (wrapAISDK) in workerd, tools observed by the AI SDK adapter', () => {
  describe('with an OpenTelemetry SDK of the app', () => {
    let worker: RunningWorker;
    beforeAll(async () => {
      worker = await startAgentsWorker('cloudflare-agents.mjs');
    }, TIMEOUT);
    afterAll(() => worker?.stop());
    const call = (errorPolicy: string) => runAgent(worker, `?errorPolicy=${errorPolicy}`);

    it(
      "each call: the framework's native span and the listener's span, apart; the model reads what it reads without the listener",
      async () => {
        const { text, spans, native } = await call('rethrow');
        // the thrown error reaches the AI SDK as it would unobserved: a tool-error part
        expect(text).toBe('getWeather:text,convertCurrency:error-text');
        expect(toolSpans(native)).toEqual([
          { name: 'execute_tool getWeather', toolCallId: 'call_1', errorType: undefined },
          { name: 'execute_tool convertCurrency', toolCallId: 'call_2', errorType: 'Error' },
        ]);
        // in the framework's trace, under its invoke_agent span
        const agent = native.find((span) => span.name === 'invoke_agent');
        for (const span of native.filter((each) => each.name.startsWith('execute_tool '))) {
          expect(span.parentSpanId).toBe(agent?.spanId);
        }
        // the listener's: one span per call, in the app's SDK, in a trace of its own
        expect(spans?.map(({ name, toolCallId, errorType }) => ({ name, toolCallId, errorType }))).toEqual([
          { name: 'execute_tool getWeather', toolCallId: 'call_1', errorType: undefined },
          { name: 'execute_tool convertCurrency', toolCallId: 'call_2', errorType: 'Error' },
        ]);
        expect(spans?.map((span) => span.traceId)).not.toContain(agent?.traceId);
      },
      TIMEOUT,
    );

    it(
      "errorPolicy 'report': the model reads the failure as the tool's result, so the framework's span records a success and the listener's the error",
      async () => {
        const { text, spans, native } = await call('report');
        expect(text).toBe('getWeather:text,convertCurrency:text');
        expect(toolSpans(native).find((span) => span.toolCallId === 'call_2')).toEqual({
          name: 'execute_tool convertCurrency',
          toolCallId: 'call_2',
          errorType: undefined,
        });
        expect(spans?.find((span) => span.toolCallId === 'call_2')?.errorType).toBe('Error');
      },
      TIMEOUT,
    );
  });

  describe("with the agents package's OpenTelemetry bridge (experimental_registerOpenTelemetry)", () => {
    let worker: RunningWorker;
    beforeAll(async () => {
      worker = await startAgentsWorker('cloudflare-agents-bridge.mjs');
    }, TIMEOUT);
    afterAll(() => worker?.stop());

    it(
      "the bridge refuses the listener's span (it starts at an explicit time): the framework's span is the call's one span, without the listener's attributes",
      async () => {
        const { text, native } = await runAgent(worker);
        expect(text).toBe('getWeather:text,convertCurrency:error-text');
        expect(toolSpans(native)).toEqual([
          { name: 'execute_tool getWeather', toolCallId: 'call_1', errorType: undefined },
          { name: 'execute_tool convertCurrency', toolCallId: 'call_2', errorType: 'Error' },
        ]);
        // nothing of the listener's on them
        for (const span of native) expect(span.attributes).not.toHaveProperty('tool_call.error.outcome');
      },
      TIMEOUT,
    );
  });
});
