import { Agent, hostedMcpTool, RunContext, run, tool, withCustomSpan, withTrace } from '@openai/agents';
import { FunctionToolError, wrapTool, wrapTools } from 'otel-tool-calls/openai-agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';
import { FunctionCallThenEcho } from './scripted-model.js';

const SDK_DEFAULT_ERROR_TEXT = 'An error occurred while running the tool. Please try again.';
const report = (error: unknown) => `reported: ${(error as Error).message}`;

const weather = tool({
  name: 'weather',
  description: 'Current weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

const failing = (options: { errorFunction?: null | ((context: unknown, error: unknown) => string) } = {}) =>
  tool({
    name: 'forecast',
    description: 'Forecast of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }): Promise<string> => {
      throw new Error(`no forecast for ${city}`);
    },
    ...options,
  });

const details = (callId: string) => ({
  toolCall: { type: 'function_call' as const, callId, name: 'weather', arguments: '{"city":"Oslo"}' },
});

describe('wrapTools through FunctionTool.invoke', () => {
  it('reports a successful call with the call id, the parsed arguments and the result', async () => {
    const listener = recordingListener();
    const [wrapped] = wrapTools([weather], listener);

    const output = await wrapped.invoke(new RunContext(), '{"city":"Oslo"}', details('call_1'));

    expect(output).toBe('sunny in Oslo');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(listener.events[0]).toMatchObject({
      kind: 'beforeCall',
      toolName: 'weather',
      toolInput: { city: 'Oslo' },
      call: {
        toolCallId: 'call_1',
        framework: 'openai-agents',
        toolDefinition: { name: 'weather', description: 'Current weather of a city' },
      },
    });
    expect(listener.events[1]).toMatchObject({ kind: 'afterCall', result: 'sunny in Oslo' });
  });

  it('rethrown: a throw the default errorFunction swallows is a FunctionToolError, and the output stays the SDK one', async () => {
    const listener = recordingListener();
    const tool = failing();
    const [wrapped] = wrapTools([tool], listener);

    const output = await wrapped.invoke(new RunContext(), '{"city":"Oslo"}', details('call_2'));

    expect(output).toBe(SDK_DEFAULT_ERROR_TEXT);
    expect(output).toBe(await tool.invoke(new RunContext(), '{"city":"Oslo"}'));
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    const error = (listener.events[1] as { error: FunctionToolError }).error;
    expect(error).toBeInstanceOf(FunctionToolError);
    expect(error.name).toBe('FunctionToolError');
    expect(error.code).toBe('tool_error');
    expect(error.toolName).toBe('forecast');
    expect(error.output).toBe(SDK_DEFAULT_ERROR_TEXT);
  });

  it('reported: the listener text becomes the tool output instead of the errorFunction text', async () => {
    const [wrapped] = wrapTools([failing()], recordingListener(report));

    const output = await wrapped.invoke(new RunContext(), '{"city":"Oslo"}', details('call_3'));

    expect(output).toMatch(/^reported: /);
    expect(output).not.toBe(SDK_DEFAULT_ERROR_TEXT);
  });

  it('a tool whose name is not a string still fails as it would unwrapped, and the listener gets a text name', async () => {
    const symbolNamed = Object.assign(failing(), { name: Symbol('forecast') as unknown as string });
    const listener = recordingListener();
    const [wrapped] = wrapTools([symbolNamed], listener);

    const output = await wrapped.invoke(new RunContext(), '{"city":"Oslo"}', details('call_5'));

    expect(output).toBe(SDK_DEFAULT_ERROR_TEXT);
    expect(listener.events.map((event) => [event.kind, event.toolName])).toEqual([
      ['beforeCall', 'Symbol(forecast)'],
      ['onError', 'Symbol(forecast)'],
      ['afterCompletion', 'Symbol(forecast)'],
    ]);
  });

  it("rethrown: a tool's own errorFunction still makes the output (in a span, where the SDK signals the failure)", async () => {
    const listener = recordingListener();
    const [wrapped] = wrapTools(
      [failing({ errorFunction: (_context, error) => `custom: ${(error as Error).message}` })],
      listener,
    );

    // outside a trace a custom errorFunction's output is not recognised (in-place.test.ts, the stated limit)
    const output = await withTrace('direct', () =>
      withCustomSpan(() => wrapped.invoke(new RunContext(), '{"city":"Oslo"}'), { data: { name: 'tools' } }),
    );

    expect(output).toBe('custom: no forecast for Oslo');
    expect((listener.events[1] as { error: unknown }).error).toBeInstanceOf(FunctionToolError);
  });

  it('with errorFunction: null the listener gets the thrown error itself; rethrown, invoke rejects with it', async () => {
    const listener = recordingListener();
    const [wrapped] = wrapTools([failing({ errorFunction: null })], listener);

    const thrown = await wrapped.invoke(new RunContext(), '{"city":"Oslo"}').catch((error: unknown) => error);

    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe('no forecast for Oslo');
    expect(thrown).not.toBeInstanceOf(FunctionToolError);
    expect((listener.events[1] as { error: unknown }).error).toBe(thrown);
  });

  it('with errorFunction: null, reported: invoke resolves to the listener text', async () => {
    const [wrapped] = wrapTools([failing({ errorFunction: null })], recordingListener(report));

    await expect(wrapped.invoke(new RunContext(), '{"city":"Oslo"}')).resolves.toBe('reported: no forecast for Oslo');
  });

  it('keeps every property of the tool, leaves the original untouched and passes other tools through', () => {
    const hosted = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://example.invalid/mcp' });
    const [wrapped, passedThrough] = wrapTools([weather, hosted], recordingListener());

    expect(passedThrough).toBe(hosted);
    expect(wrapped).not.toBe(weather);
    expect(wrapped.invoke).not.toBe(weather.invoke);
    const { invoke: _wrappedInvoke, ...wrappedRest } = wrapped;
    const { invoke: _originalInvoke, ...originalRest } = weather;
    expect(wrappedRest).toEqual(originalRest);
    expect(wrapped.needsApproval).toBe(weather.needsApproval);
    expect(wrapped.isEnabled).toBe(weather.isEnabled);
    expect(wrapped.parameters).toBe(weather.parameters);
  });

  it('wrapTool wraps one tool; wrapping a wrapped tool reports to both listeners', async () => {
    const inner = recordingListener();
    const outer = recordingListener();
    const twice = wrapTool(wrapTool(failing(), inner), outer);

    const output = await twice.invoke(new RunContext(), '{"city":"Oslo"}');

    expect(output).toBe(SDK_DEFAULT_ERROR_TEXT);
    expect(inner.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect(outer.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });

  it('throws a TypeError naming the argument that is not a tool list, a tool or a listener', () => {
    expect(() => wrapTools('weather' as never, recordingListener())).toThrow(
      new TypeError('wrapTools: `tools` must be an array of tools, got string'),
    );
    expect(() => wrapTools([weather, null] as never, recordingListener())).toThrow(/`tools\[1\]`/);
    expect(() => wrapTools([weather], undefined as never)).toThrow(/`listener`/);
    expect(() => wrapTool({ type: 'hosted_tool' } as never, recordingListener())).toThrow(/`tool`/);
  });
});

describe('wrapTools in a real agent run', () => {
  it('the listener sees the call id the model gave and the agent output contains the tool result', async () => {
    const listener = recordingListener();
    const model = new FunctionCallThenEcho({ name: 'weather', arguments: { city: 'Oslo' }, callId: 'call_abc' });
    const agent = new Agent({ name: 'Assistant', model, tools: wrapTools([weather], listener) });

    const controller = new AbortController();
    const result = await run(agent, 'Weather in Oslo?', { signal: controller.signal });

    expect(result.finalOutput).toBe('tool said: sunny in Oslo');
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(listener.events[0]).toMatchObject({
      toolName: 'weather',
      toolInput: { city: 'Oslo' },
      call: { toolCallId: 'call_abc', framework: 'openai-agents' },
    });
    expect((listener.events[0] as { call: { signal?: unknown } }).call.signal).toBeInstanceOf(AbortSignal);
  });

  it('reported: a failing tool is an error for the listener and the model gets the listener text', async () => {
    const listener = recordingListener(report);
    const model = new FunctionCallThenEcho({ name: 'forecast', arguments: { city: 'Oslo' }, callId: 'call_def' });
    const agent = new Agent({ name: 'Assistant', model, tools: wrapTools([failing()], listener) });

    const result = await run(agent, 'Forecast for Oslo?');

    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect(listener.events[0]).toMatchObject({ call: { toolCallId: 'call_def' } });
    const error = (listener.events[1] as { error: unknown }).error;
    expect(error).toBeInstanceOf(FunctionToolError);
    expect(result.finalOutput).toBe(`tool said: ${report(error)}`);
  });

  it('rethrown: a failing tool is an error for the listener and the model gets what the SDK gives it', async () => {
    const listener = recordingListener();
    const model = new FunctionCallThenEcho({ name: 'forecast', arguments: { city: 'Oslo' }, callId: 'call_ghi' });
    const agent = new Agent({ name: 'Assistant', model, tools: wrapTools([failing()], listener) });

    const result = await run(agent, 'Forecast for Oslo?');

    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect(result.finalOutput).toBe(`tool said: ${SDK_DEFAULT_ERROR_TEXT}`);
  });
});
