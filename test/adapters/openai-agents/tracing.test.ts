import {
  Agent,
  getCurrentSpan,
  run,
  type Span,
  type SpanData,
  setTraceProcessors,
  setTracingDisabled,
  type Trace,
  type TracingProcessor,
  tool,
} from '@openai/agents';
import { wrapTools } from 'otel-tool-calls/openai-agents';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';
import { FunctionCallThenEcho } from './scripted-model.js';

/** The SDK's own trace processor interface, keeping the spans that end. */
class KeepEndedSpans implements TracingProcessor {
  readonly spans: Span<SpanData>[] = [];
  async onTraceStart(_trace: Trace) {}
  async onTraceEnd(_trace: Trace) {}
  async onSpanStart(_span: Span<SpanData>) {}
  async onSpanEnd(span: Span<SpanData>) {
    this.spans.push(span);
  }
  async shutdown() {}
  async forceFlush() {}
}

let processor: KeepEndedSpans;
beforeEach(() => {
  processor = new KeepEndedSpans();
  setTraceProcessors([processor]);
  setTracingDisabled(false);
});
afterEach(() => {
  setTracingDisabled(true);
  setTraceProcessors([]);
});

const forecast = tool({
  name: 'forecast',
  description: 'Forecast of a city',
  parameters: z.object({ city: z.string() }),
  execute: async (): Promise<string> => {
    throw new Error('no forecast');
  },
});

describe('wrapTools with the SDK tracing on', () => {
  it("leaves the SDK's own function span as it was: the swallowed error is still recorded on it", async () => {
    const listener = recordingListener();
    const model = new FunctionCallThenEcho({ name: 'forecast', arguments: { city: 'Oslo' }, callId: 'call_1' });
    const agent = new Agent({ name: 'Assistant', model, tools: wrapTools([forecast], listener) });

    await run(agent, 'Forecast for Oslo?');

    const functionSpans = processor.spans.filter((span) => span.spanData.type === 'function');
    expect(functionSpans).toHaveLength(1);
    expect(functionSpans[0]?.spanData).toMatchObject({ type: 'function', name: 'forecast' });
    expect(functionSpans[0]?.error).toMatchObject({ message: 'Error running tool (non-fatal)' });
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });

  it("the tool body sees the runner's function span itself, not a stand-in, and the failure is still counted", async () => {
    let seen: unknown;
    const observed = tool({
      name: 'forecast',
      description: 'Forecast of a city',
      parameters: z.object({ city: z.string() }),
      execute: async (): Promise<string> => {
        seen = getCurrentSpan();
        throw new Error('no forecast');
      },
    });
    const listener = recordingListener();
    const model = new FunctionCallThenEcho({ name: 'forecast', arguments: { city: 'Oslo' }, callId: 'call_1' });

    await run(new Agent({ name: 'Assistant', model, tools: wrapTools([observed], listener) }), 'Forecast for Oslo?');

    const functionSpan = processor.spans.find((span) => span.spanData.type === 'function');
    expect(functionSpan).toBeDefined();
    expect(seen).toBe(functionSpan);
    expect(functionSpan?.error).toMatchObject({ message: 'Error running tool (non-fatal)' });
    expect(Object.hasOwn(functionSpan as object, 'setError')).toBe(false);
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });
});
