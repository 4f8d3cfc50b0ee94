import { types } from 'node:util';
import {
  Agent,
  type FunctionTool,
  getCurrentSpan,
  getCurrentTrace,
  RunContext,
  run,
  tool,
  withCustomSpan,
  withTrace,
} from '@openai/agents';
import { FunctionToolError, wrapTool, wrapTools } from 'otel-tool-calls/openai-agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';
import { FunctionCallThenEcho } from './scripted-model.js';

const SDK_DEFAULT_ERROR_TEXT = 'An error occurred while running the tool. Please try again.';
const oslo = '{"city":"Oslo"}';

/** What the tool body saw of the SDK's tracing context, one entry per call. */
interface Seen {
  readonly span: unknown;
  readonly trace: unknown;
  /** The span the runner made for this call, as it records it on the call's details. */
  readonly spanOfCall: unknown;
}

/** A tool() whose body records what it sees; it throws for a city named 'Atlantis'. */
function seeingTool(options: { readonly errorFunction?: (context: unknown, error: unknown) => string } = {}) {
  const seen: Seen[] = [];
  const forecast = tool({
    name: 'forecast',
    description: 'Forecast of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }, _context, details): Promise<string> => {
      seen.push({ span: getCurrentSpan(), trace: getCurrentTrace(), spanOfCall: spanOfCall(details) });
      await Promise.resolve();
      if (city === 'Atlantis') throw new Error(`no forecast for ${city}`);
      return `rain in ${city}`;
    },
    ...options,
  });
  return { forecast, seen };
}

/** The runner keeps the function span of a call on its details, under a symbol of its own. */
function spanOfCall(details: object | undefined): unknown {
  if (details === undefined) return undefined;
  const key = Object.getOwnPropertySymbols(details).find(
    (symbol) => symbol.description === 'openai.agents.toolCallParentSpan',
  );
  return key === undefined ? undefined : (details as Record<symbol, unknown>)[key];
}

/** A FunctionTool written as a class: its invoke and a getter read a #private field. */
class CountingTool implements FunctionTool {
  readonly type = 'function' as const;
  readonly name = 'count';
  readonly description = 'Counts its calls';
  readonly parameters = {
    type: 'object',
    properties: {},
    required: [],
    additionalProperties: false,
  } as FunctionTool['parameters'];
  readonly strict = true;
  readonly needsApproval = async () => false;
  readonly isEnabled = async () => true;
  #calls = 0;

  async invoke(_runContext: RunContext, _input: string): Promise<string> {
    this.#calls += 1;
    return `call ${this.#calls}`;
  }

  get calls(): number {
    return this.#calls;
  }
}

describe('wrapTool observes the original FunctionTool, never a copy', () => {
  it('a frozen tool is wrapped: the runner and a direct invoke reach it, and it stays frozen and unchanged', async () => {
    const { forecast } = seeingTool();
    const frozen = Object.freeze(forecast);
    const invoke = frozen.invoke;
    const listener = recordingListener();

    const [wrapped] = wrapTools([frozen], listener);
    const model = new FunctionCallThenEcho({ name: 'forecast', arguments: { city: 'Oslo' }, callId: 'call_1' });
    const result = await run(new Agent({ name: 'Assistant', model, tools: [wrapped] }), 'Forecast for Oslo?');
    const direct = await wrapTool(frozen, listener).invoke(new RunContext(), oslo);

    expect(result.finalOutput).toBe('tool said: rain in Oslo');
    expect(direct).toBe('rain in Oslo');
    expect(listener.kinds()).toEqual([
      ...['beforeCall', 'afterCall', 'afterCompletion'],
      ...['beforeCall', 'afterCall', 'afterCompletion'],
    ]);
    expect(listener.events[0]).toMatchObject({ call: { toolCallId: 'call_1' } });
    expect(Object.isFrozen(frozen)).toBe(true);
    expect(frozen.invoke).toBe(invoke);
    expect(wrapped.name).toBe('forecast');
    expect(wrapped.parameters).toBe(frozen.parameters);
  });

  it('runs the original invoke with the original tool as this: a tool class with a #private field works wrapped', async () => {
    const counting = new CountingTool();
    const listener = recordingListener();
    const wrapped = wrapTool(counting, listener);

    const model = new FunctionCallThenEcho({ name: 'count', arguments: {}, callId: 'call_1' });
    const result = await run(new Agent({ name: 'Assistant', model, tools: [wrapped] }), 'Count');
    const direct = await wrapped.invoke(new RunContext(), '{}');

    expect(result.finalOutput).toBe('tool said: call 1');
    expect(direct).toBe('call 2');
    // the getter reads the original's #private field: state set by invoke is the original's
    expect(wrapped.calls).toBe(2);
    expect(counting.calls).toBe(2);
    expect(wrapped).toBeInstanceOf(CountingTool);
    expect(listener.kinds()).toEqual([
      ...['beforeCall', 'afterCall', 'afterCompletion'],
      ...['beforeCall', 'afterCall', 'afterCompletion'],
    ]);
  });
});

describe('wrapTool: the tool body sees the SDK tracing context as unwrapped', () => {
  it('outside a trace the body sees no current span and no trace, as unwrapped; a failure is still counted', async () => {
    const bare = seeingTool();
    const observed = seeingTool();
    const listener = recordingListener();
    const wrapped = wrapTool(observed.forecast, listener);

    const bareOutputs = [
      await bare.forecast.invoke(new RunContext(), oslo),
      await bare.forecast.invoke(new RunContext(), '{"city":"Atlantis"}'),
    ];
    const outputs = [
      await wrapped.invoke(new RunContext(), oslo),
      await wrapped.invoke(new RunContext(), '{"city":"Atlantis"}'),
    ];

    expect(outputs).toEqual(bareOutputs);
    expect(outputs).toEqual(['rain in Oslo', SDK_DEFAULT_ERROR_TEXT]);
    expect(bare.seen.map(({ span, trace }) => [span, trace])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(observed.seen.map(({ span, trace }) => [span, trace])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(listener.kinds()).toEqual([
      ...['beforeCall', 'afterCall', 'afterCompletion'],
      ...['beforeCall', 'onError', 'afterCompletion'],
    ]);
    expect((listener.events[4] as { error: unknown }).error).toBeInstanceOf(FunctionToolError);
  });

  it("in a run (the SDK tracing off: a NoopSpan), the body sees the runner's span itself; a custom errorFunction's output is counted", async () => {
    const { forecast, seen } = seeingTool({
      errorFunction: (_context, error) => `custom: ${(error as Error).message}`,
    });
    const listener = recordingListener();
    const model = new FunctionCallThenEcho({ name: 'forecast', arguments: { city: 'Atlantis' }, callId: 'call_1' });

    const result = await run(
      new Agent({ name: 'Assistant', model, tools: wrapTools([forecast], listener) }),
      'Forecast for Atlantis?',
    );

    expect(result.finalOutput).toBe('tool said: custom: no forecast for Atlantis');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.span).not.toBeNull();
    expect(types.isProxy(seen[0]?.span)).toBe(false);
    expect(seen[0]?.span).toBe(seen[0]?.spanOfCall);
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    const error = (listener.events[1] as { error: FunctionToolError }).error;
    expect(error).toBeInstanceOf(FunctionToolError);
    expect(error.output).toBe('custom: no forecast for Atlantis');
  });

  it('wrapped twice, in a run: each listener sees the failure once, the outer one with the output the inner gave', async () => {
    const { forecast, seen } = seeingTool({ errorFunction: () => 'custom failure' });
    const inner = recordingListener(() => 'inner report');
    const outer = recordingListener();
    const model = new FunctionCallThenEcho({ name: 'forecast', arguments: { city: 'Atlantis' }, callId: 'call_1' });

    const result = await run(
      new Agent({ name: 'Assistant', model, tools: [wrapTool(wrapTool(forecast, inner), outer)] }),
      'Forecast for Atlantis?',
    );

    expect(result.finalOutput).toBe('tool said: inner report');
    expect(seen[0]?.span).toBe(seen[0]?.spanOfCall);
    expect(inner.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect(outer.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect((outer.events[1] as { error: FunctionToolError }).error.output).toBe('inner report');
  });

  it('concurrent calls under one span: each failure is counted for its own call only, and the span is left as it was', async () => {
    const { forecast, seen } = seeingTool({ errorFunction: () => 'custom failure' });
    const listener = recordingListener();
    const wrapped = wrapTool(forecast, listener);
    const cities = ['Oslo', 'Atlantis', 'Bergen', 'Atlantis', 'Tromsø'];

    const { outputs, span } = await withTrace('concurrent', () =>
      withCustomSpan(
        async (span) => {
          const outputs = await Promise.all(
            cities.map((city) => wrapped.invoke(new RunContext(), JSON.stringify({ city }))),
          );
          return { outputs, span };
        },
        { data: { name: 'tools' } },
      ),
    );

    expect(outputs).toEqual(['rain in Oslo', 'custom failure', 'rain in Bergen', 'custom failure', 'rain in Tromsø']);
    expect(seen.every((entry) => entry.span === span)).toBe(true);
    // a listener's context is the number of its beforeCall: 1, 2, ...
    const inputs = listener.events.flatMap((event) =>
      event.kind === 'beforeCall' ? [(event.toolInput as { city: string }).city] : [],
    );
    const failed = listener.events.flatMap((event) =>
      event.kind === 'onError' ? [inputs[Number(event.context) - 1]] : [],
    );
    expect(inputs).toEqual(cities);
    expect(failed).toEqual(['Atlantis', 'Atlantis']);
    expect(listener.kinds().filter((kind) => kind === 'afterCall')).toHaveLength(3);
    expect(Object.hasOwn(span, 'setError')).toBe(false);
  });

  it("outside a trace, a tool's own errorFunction output is not seen as a failure (the stated limit)", async () => {
    const { forecast } = seeingTool({ errorFunction: () => 'custom failure' });
    const listener = recordingListener();

    const output = await wrapTool(forecast, listener).invoke(new RunContext(), '{"city":"Atlantis"}');

    expect(output).toBe('custom failure');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });
});
