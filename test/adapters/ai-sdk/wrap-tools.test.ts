import { dynamicTool, generateText, jsonSchema, stepCountIs, streamText, type ToolExecutionOptions, tool } from 'ai';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ListenerEvent, recordingListener } from '../../helpers/recording-listener.js';
import { toolCallThenText, toolResultsInPrompt } from './mock-model.js';

const weather = tool({
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: 21 }),
});

describe('wrapTools (AI SDK)', () => {
  it('reports the tool name, input, toolCallId and result of a tool call in a generateText loop', async () => {
    const { listener, events } = recordingListener();
    const model = toolCallThenText({ toolName: 'weather', input: { city: 'Paris' }, toolCallId: 'call-1' }, 'Sunny');

    const result = await generateText({
      model,
      tools: wrapTools({ weather }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Paris?',
    });

    expect(result.text).toBe('Sunny');
    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    const before = events[0] as Extract<ListenerEvent, { kind: 'beforeCall' }>;
    expect(before.toolName).toBe('weather');
    expect(before.toolInput).toEqual({ city: 'Paris' });
    expect(before.call.toolCallId).toBe('call-1');
    expect(before.call.framework).toBe('ai-sdk');
    expect(before.call.toolDefinition).toMatchObject({ name: 'weather', description: 'Current weather of a city' });
    expect(before.call.toolDefinition.inputSchema).toBe(weather.inputSchema);
    expect(events[1]).toMatchObject({
      kind: 'afterCall',
      toolName: 'weather',
      result: { city: 'Paris', temperature: 21 },
    });
    // the model got the tool's real result back
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({
        toolCallId: 'call-1',
        output: { type: 'json', value: { city: 'Paris', temperature: 21 } },
      }),
    ]);
  });

  it("passes the abort signal of generateText to the listener, and execute's options to the original execute, run on the original tool", async () => {
    const { listener, events } = recordingListener();
    const seen: { options?: ToolExecutionOptions; self?: unknown } = {};
    const echo = tool({
      inputSchema: z.object({ text: z.string() }),
      execute(this: unknown, { text }, options) {
        seen.options = options;
        seen.self = this;
        return text;
      },
    });
    const tools = wrapTools({ echo }, listener);
    const controller = new AbortController();

    await generateText({
      model: toolCallThenText({ toolName: 'echo', input: { text: 'hi' }, toolCallId: 'call-2' }),
      tools,
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
      prompt: 'Echo hi',
    });

    const before = events[0] as Extract<ListenerEvent, { kind: 'beforeCall' }>;
    expect(seen.options?.toolCallId).toBe('call-2');
    expect(seen.options?.messages).toEqual([expect.objectContaining({ role: 'user' })]);
    expect(seen.options?.abortSignal).toBeInstanceOf(AbortSignal);
    expect(before.call.signal).toBe(seen.options?.abortSignal);
    // the AI SDK calls execute on the tool it was given (the stand-in); the original runs on the original tool
    expect(seen.self).toBe(echo);
    expect(events[1]).toMatchObject({ kind: 'afterCall', toolName: 'echo', result: 'hi' });
  });

  it('returns the same keys with every property kept; tools without execute pass through as they are', () => {
    const toModelOutput = () => ({ type: 'text' as const, value: 'x' });
    const needsApproval = () => false;
    const full = tool({
      title: 'Full',
      description: 'All the options',
      inputSchema: z.object({ q: z.string() }),
      providerOptions: { test: { cache: true } },
      metadata: { source: 'unit' },
      strict: true,
      needsApproval,
      toModelOutput,
      execute: async ({ q }) => q,
    });
    const clientSide = tool({ description: 'asks the user', inputSchema: z.object({ question: z.string() }) });
    const dynamic = dynamicTool({
      description: 'runtime tool',
      inputSchema: jsonSchema({ type: 'object' }),
      execute: async () => 'ok',
    });
    const tools = { full, clientSide, dynamic };

    const wrapped = wrapTools(tools, {});

    expect(Object.keys(wrapped)).toEqual(['full', 'clientSide', 'dynamic']);
    expect(wrapped.clientSide).toBe(clientSide);
    const { execute: fullExecute, ...fullRest } = wrapped.full;
    const { execute: originalExecute, ...originalRest } = full;
    expect(fullRest).toEqual(originalRest);
    expect(fullRest.inputSchema).toBe(full.inputSchema);
    expect(fullRest.toModelOutput).toBe(toModelOutput);
    expect(fullRest.needsApproval).toBe(needsApproval);
    expect(fullExecute).not.toBe(originalExecute);
    expect(wrapped.dynamic.type).toBe('dynamic');
    // the originals are not modified
    expect(full.execute).toBe(originalExecute);
  });

  it("gives the listener the tool's own metadata, and an empty one when the tool has none", async () => {
    const { listener, events } = recordingListener();
    const fromServer = tool({
      inputSchema: z.object({}),
      metadata: { mcpServer: 'docs' },
      execute: async () => 'ok',
    });
    const plain = tool({ inputSchema: z.object({}), execute: async () => 'ok' });
    const wrapped = wrapTools({ fromServer, plain }, listener);

    await wrapped.fromServer.execute?.({}, { toolCallId: 'direct-1', messages: [] });
    await wrapped.plain.execute?.({}, { toolCallId: 'direct-2', messages: [] });

    const befores = events.filter((event) => event.kind === 'beforeCall');
    expect(befores.map((event) => [event.call.toolCallId, event.call.toolMetadata])).toEqual([
      ['direct-1', { mcpServer: 'docs' }],
      ['direct-2', {}],
    ]);
  });

  it('reports a failing tool to the model as the tool output when the listener returns a text', async () => {
    const { listener, events } = recordingListener((error) => `Tool failed: ${(error as Error).message}`);
    const failure = new Error('city not found');
    const broken = tool({
      inputSchema: z.object({ city: z.string() }),
      execute: async (): Promise<string> => {
        throw failure;
      },
    });
    const model = toolCallThenText({ toolName: 'broken', input: { city: 'Atlantis' }, toolCallId: 'call-3' });

    const result = await generateText({
      model,
      tools: wrapTools({ broken }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Atlantis?',
    });

    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect((events[1] as Extract<ListenerEvent, { kind: 'onError' }>).error).toBe(failure);
    // a tool result, not a tool error: the model reads the reported text and the loop goes on
    expect(result.steps[0]?.content).toContainEqual(
      expect.objectContaining({ type: 'tool-result', toolCallId: 'call-3', output: 'Tool failed: city not found' }),
    );
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({ toolCallId: 'call-3', output: { type: 'text', value: 'Tool failed: city not found' } }),
    ]);
  });

  it('rethrows a failing tool when the listener does not report: the AI SDK turns it into a tool-error part', async () => {
    const { listener, events } = recordingListener();
    const failure = new Error('database down');
    const broken = tool({
      inputSchema: z.object({ id: z.number() }),
      execute: (): string => {
        throw failure;
      },
    });
    const model = toolCallThenText({ toolName: 'broken', input: { id: 7 }, toolCallId: 'call-4' });

    const result = await generateText({
      model,
      tools: wrapTools({ broken }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Look up 7',
    });

    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    // AI SDK 6 does not reject generateText: the same error object lands in a tool-error part ...
    expect(result.steps[0]?.content).toContainEqual(
      expect.objectContaining({ type: 'tool-error', toolCallId: 'call-4', toolName: 'broken', error: failure }),
    );
    // ... and the model is sent the error message as an error-text tool result
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({
        toolCallId: 'call-4', // ai 6 sends the message, ai 7 `String(error)`
        output: { type: 'error-text', value: expect.stringMatching(/^(Error: )?database down$/) },
      }),
    ]);
  });

  it('passes every preliminary result of a streaming tool through and ends the call with the last chunk', async () => {
    const { listener, events } = recordingListener();
    const progress = tool({
      inputSchema: z.object({ steps: z.number() }),
      async *execute({ steps }) {
        for (let step = 1; step <= steps; step++) yield { status: 'working', step };
        yield { status: 'done', step: steps };
      },
    });

    const result = streamText({
      model: toolCallThenText({ toolName: 'progress', input: { steps: 2 }, toolCallId: 'call-5' }),
      tools: wrapTools({ progress }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Go',
    });
    const toolResults: { output: unknown; preliminary?: boolean }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result') toolResults.push({ output: part.output, preliminary: part.preliminary });
    }

    expect(toolResults).toEqual([
      { output: { status: 'working', step: 1 }, preliminary: true },
      { output: { status: 'working', step: 2 }, preliminary: true },
      { output: { status: 'done', step: 2 }, preliminary: true },
      { output: { status: 'done', step: 2 }, preliminary: undefined },
    ]);
    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(events[1]).toMatchObject({ kind: 'afterCall', toolName: 'progress', result: { status: 'done', step: 2 } });
    expect(await result.text).toBe('done');
  });

  it('makes the reported text the final output of a streaming tool that fails mid-stream', async () => {
    const { listener, events } = recordingListener(() => 'stream broke');
    const flaky = tool({
      inputSchema: z.object({}),
      async *execute() {
        yield 'first';
        throw new Error('connection reset');
      },
    });

    const result = await generateText({
      model: toolCallThenText({ toolName: 'flaky', input: {}, toolCallId: 'call-6' }),
      tools: wrapTools({ flaky }, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Go',
    });

    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect(result.steps[0]?.content).toContainEqual(
      expect.objectContaining({ type: 'tool-result', toolCallId: 'call-6', output: 'stream broke' }),
    );
  });

  it('wraps an already wrapped record: both listeners see the call', async () => {
    const outer = recordingListener();
    const inner = recordingListener();
    const tools = wrapTools(wrapTools({ weather }, inner.listener), outer.listener);

    await generateText({
      model: toolCallThenText({ toolName: 'weather', input: { city: 'Kyiv' }, toolCallId: 'call-7' }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Kyiv?',
    });

    for (const { events } of [outer, inner]) {
      expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
      expect((events[0] as Extract<ListenerEvent, { kind: 'beforeCall' }>).call.toolCallId).toBe('call-7');
    }
  });

  it('throws a TypeError naming the argument when tools or listener are invalid', () => {
    expect(() => wrapTools(null as never, {})).toThrow(
      new TypeError('wrapTools: `tools` must be a record of AI SDK tools, got null'),
    );
    expect(() => wrapTools([] as never, {})).toThrow(/`tools` must be a record/);
    expect(() => wrapTools({ weather }, undefined as never)).toThrow(TypeError);
    expect(() => wrapTools({ weather }, undefined as never)).toThrow(/`listener`/);
    expect(() => wrapTools({ bad: 42 } as never, {})).toThrow(/`tools\.bad` must be an AI SDK tool object/);
    expect(() => wrapTools({ bad: { inputSchema: {}, execute: 'x' } } as never, {})).toThrow(
      /`tools\.bad\.execute` must be a function/,
    );
  });
});
