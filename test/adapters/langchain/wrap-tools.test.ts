import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, StructuredTool, tool } from '@langchain/core/tools';
import { wrapTools } from 'otel-tool-calls/langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ListenerEvent, recordingListener } from '../../helpers/recording-listener.js';

const weather = tool(async ({ city }) => `21°C in ${city}`, {
  name: 'weather',
  description: 'Current weather of a city',
  schema: z.object({ city: z.string() }),
});

const failure = new Error('city not found');
const broken = tool(
  async (): Promise<string> => {
    throw failure;
  },
  { name: 'broken', description: 'Always fails', schema: z.object({ city: z.string() }) },
);

function beforeEvent(events: readonly ListenerEvent[]): Extract<ListenerEvent, { kind: 'beforeCall' }> {
  const before = events.find((event) => event.kind === 'beforeCall');
  if (before?.kind !== 'beforeCall') throw new Error('no beforeCall recorded');
  return before;
}

describe('wrapTools (LangChain)', () => {
  it('reports a call with plain arguments: name, validated input, result, no toolCallId', async () => {
    const { listener, events } = recordingListener();
    const [wrapped] = wrapTools([weather], listener);

    const output = await wrapped.invoke({ city: 'Paris' });

    expect(output).toBe('21°C in Paris');
    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    const before = beforeEvent(events);
    expect(before.toolName).toBe('weather');
    expect(before.toolInput).toEqual({ city: 'Paris' });
    expect(before.call.toolCallId).toBeUndefined();
    expect(before.call.framework).toBe('langchain');
    expect(before.call.toolDefinition).toEqual({
      name: 'weather',
      description: 'Current weather of a city',
      inputSchema: weather.schema,
    });
    // LangChain's own tool metadata (it adds its version) plus returnDirect
    expect(before.call.toolMetadata).toMatchObject({ returnDirect: false, versions: expect.any(Object) });
    expect(events[1]).toMatchObject({ kind: 'afterCall', toolName: 'weather', result: '21°C in Paris' });
  });

  it("returns a ToolMessage for a ToolCall and gives the listener the ToolCall's id", async () => {
    const { listener, events } = recordingListener();
    const [wrapped] = wrapTools([weather], listener);
    const toolEnds: unknown[] = [];

    const message = await wrapped.invoke(
      { name: 'weather', args: { city: 'Oslo' }, id: 'call_1', type: 'tool_call' },
      { callbacks: [{ handleToolEnd: (output: unknown) => void toolEnds.push(output) }] },
    );

    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.content).toBe('21°C in Oslo');
    expect(message.tool_call_id).toBe('call_1');
    expect(message.status).toBe('success');
    expect(beforeEvent(events).call.toolCallId).toBe('call_1');
    expect(beforeEvent(events).toolInput).toEqual({ city: 'Oslo' });
    // LangChain's own callbacks still see the call
    expect(toolEnds).toEqual([message]);
  });

  it('passes the signal of the run config to the listener', async () => {
    const { listener, events } = recordingListener();
    const [wrapped] = wrapTools([weather], listener);
    const controller = new AbortController();

    await wrapped.invoke({ city: 'Rome' }, { signal: controller.signal });

    const { signal } = beforeEvent(events).call;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal?.aborted).toBe(false);
    controller.abort(new Error('stop'));
    // the listener's signal follows the caller's (LangChain may combine it with a timeout)
    expect(signal?.aborted).toBe(true);
  });

  it('keeps name, description, schema, returnDirect, class and every other property; the originals stay untouched', () => {
    const direct = new DynamicStructuredTool({
      name: 'final_answer',
      description: 'Ends the run',
      schema: z.object({ answer: z.string() }),
      returnDirect: true,
      metadata: { owner: 'team-a' },
      func: async ({ answer }) => answer,
    });
    const tools = [weather, direct];

    const wrapped = wrapTools(tools, {});

    expect(wrapped).toHaveLength(2);
    expect(wrapped.map((t) => t.name)).toEqual(['weather', 'final_answer']);
    for (const [index, original] of tools.entries()) {
      const standIn = wrapped[index] as StructuredTool;
      expect(standIn).not.toBe(original);
      expect(standIn).toBeInstanceOf(StructuredTool);
      expect(Object.getPrototypeOf(standIn)).toBe(Object.getPrototypeOf(original));
      expect(standIn.description).toBe(original.description);
      expect(standIn.schema).toBe(original.schema);
      expect(standIn.returnDirect).toBe(original.returnDirect);
      expect(standIn.lc_namespace).toEqual(['langchain', 'tools']);
      expect({ ...standIn }).toEqual({ ...original });
    }
    expect(wrapped[1]?.metadata).toMatchObject({ owner: 'team-a' });
    expect(Object.hasOwn(weather, '_call')).toBe(false);
  });

  it('reports a failing tool as its output when the listener returns a text', async () => {
    const { listener, events } = recordingListener((error) => `Tool failed: ${(error as Error).message}`);
    const [wrapped] = wrapTools([broken], listener);

    const plain = await wrapped.invoke({ city: 'Atlantis' });
    const message = await wrapped.invoke({
      name: 'broken',
      args: { city: 'Atlantis' },
      id: 'call_2',
      type: 'tool_call',
    });

    expect(plain).toBe('Tool failed: city not found');
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.content).toBe('Tool failed: city not found');
    expect(message.tool_call_id).toBe('call_2');
    expect(message.name).toBe('broken');
    expect(events.filter((event) => event.kind === 'onError')).toMatchObject([
      { kind: 'onError', toolName: 'broken', error: failure },
      { kind: 'onError', toolName: 'broken', error: failure },
    ]);
  });

  it("marks a failure reported to the model as a ToolMessage with status 'error', as LangGraph's ToolNode does", async () => {
    const [wrapped] = wrapTools([broken], recordingListener(() => 'Tool failed').listener);
    const [healthy] = wrapTools([weather], recordingListener(() => 'Tool failed').listener);

    const failed = await wrapped.invoke({ name: 'broken', args: { city: 'x' }, id: 'call_8', type: 'tool_call' });
    const succeeded = await healthy.invoke({
      name: 'weather',
      args: { city: 'Oslo' },
      id: 'call_9',
      type: 'tool_call',
    });

    expect(failed).toBeInstanceOf(ToolMessage);
    expect(failed.status).toBe('error');
    expect(succeeded.status).toBe('success');
  });

  it('rethrows the same error when the listener does not report it', async () => {
    const { listener, events } = recordingListener();
    const [wrapped] = wrapTools([broken], listener);

    await expect(
      wrapped.invoke({ name: 'broken', args: { city: 'Atlantis' }, id: 'call_3', type: 'tool_call' }),
    ).rejects.toBe(failure);
    expect(events.map((event) => event.kind)).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect(beforeEvent(events).call.toolCallId).toBe('call_3');
  });

  it('reports the error of a content_and_artifact tool as its content, with no artifact', async () => {
    const retriever = tool(
      async (): Promise<[string, string[]]> => {
        throw new Error('index offline');
      },
      {
        name: 'retrieve',
        description: 'Finds documents',
        schema: z.object({ query: z.string() }),
        responseFormat: 'content_and_artifact',
      },
    );
    const [wrapped] = wrapTools([retriever], recordingListener(() => 'search is unavailable').listener);

    const message = await wrapped.invoke({ name: 'retrieve', args: { query: 'x' }, id: 'call_4', type: 'tool_call' });

    expect(message.content).toBe('search is unavailable');
    expect(message.status).toBe('error');
    expect(message.artifact).toBeUndefined();
  });

  it('keeps the result of a content_and_artifact tool that succeeds', async () => {
    const retriever = tool(async ({ query }): Promise<[string, string[]]> => [`1 hit for ${query}`, ['doc-1']], {
      name: 'retrieve',
      description: 'Finds documents',
      schema: z.object({ query: z.string() }),
      responseFormat: 'content_and_artifact',
    });
    const { listener, events } = recordingListener();
    const [wrapped] = wrapTools([retriever], listener);

    const message = await wrapped.invoke({
      name: 'retrieve',
      args: { query: 'otel' },
      id: 'call_5',
      type: 'tool_call',
    });

    expect(message.content).toBe('1 hit for otel');
    expect(message.artifact).toEqual(['doc-1']);
    expect(events[1]).toMatchObject({ kind: 'afterCall', toolName: 'retrieve', result: ['1 hit for otel', ['doc-1']] });
  });

  it("ends a streaming tool's call when the tool returns, after forwarding its events to LangChain", async () => {
    let finished = false;
    const progress = tool(
      async function* ({ steps }: { steps: number }) {
        for (let step = 1; step <= steps; step++) yield { step };
        finished = true;
        return `${steps} steps done`;
      },
      { name: 'progress', description: 'Reports progress', schema: z.object({ steps: z.number() }) },
    );
    const { listener, events } = recordingListener();
    const seenWhenEnded: boolean[] = [];
    const [wrapped] = wrapTools([progress], {
      ...listener,
      afterCall(...args) {
        seenWhenEnded.push(finished);
        listener.afterCall?.(...args);
      },
    });
    const toolEvents: unknown[] = [];

    const output = await wrapped.invoke(
      { steps: 2 },
      { callbacks: [{ handleToolEvent: (chunk: unknown) => void toolEvents.push(chunk) }] },
    );

    expect(output).toBe('2 steps done');
    expect(toolEvents).toEqual([{ step: 1 }, { step: 2 }]);
    expect(events[1]).toMatchObject({ kind: 'afterCall', toolName: 'progress', result: '2 steps done' });
    expect(seenWhenEnded).toEqual([true]);
  });

  it('wraps already wrapped tools: both listeners see the call, the inner one inside the outer one', async () => {
    const outer = recordingListener();
    const inner = recordingListener();
    const [twice] = wrapTools(wrapTools([weather], inner.listener), outer.listener);

    const message = await twice.invoke({ name: 'weather', args: { city: 'Kyiv' }, id: 'call_6', type: 'tool_call' });

    expect(message.content).toBe('21°C in Kyiv');
    expect(outer.events.map((event) => event.kind)).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(inner.events.map((event) => event.kind)).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(beforeEvent(inner.events).call.toolCallId).toBe('call_6');
  });

  it('a call LangChain rejects for its arguments reaches the listener as a rejected call, before the tool runs', async () => {
    const rethrowing = recordingListener();
    const [wrapped] = wrapTools([weather], rethrowing.listener);
    await expect(wrapped.invoke({ city: 42 } as never)).rejects.toThrow(/did not match expected schema/);
    expect(rethrowing.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    expect(rethrowing.events[0]).toMatchObject({ toolName: 'weather', toolInput: { city: 42 } });
    expect((rethrowing.events[0] as { call: { rejection?: string } }).call.rejection).toBe('invalid_input');

    const reporting = recordingListener(() => 'reported');
    const [reported] = wrapTools([weather], reporting.listener);
    expect(await reported.invoke({ city: 42 } as never)).toBe('reported');
  });

  it('throws a TypeError naming the argument when tools or listener are invalid', () => {
    expect(() => wrapTools({} as never, {})).toThrow(
      new TypeError('wrapTools: `tools` must be an array of LangChain StructuredTools, got object'),
    );
    expect(() => wrapTools([weather], undefined as never)).toThrow(TypeError);
    expect(() => wrapTools([weather], undefined as never)).toThrow(/`listener`/);
    expect(() => wrapTools([weather, { name: 'x' }] as never, {})).toThrow(
      /`tools\[1\]` must be a LangChain StructuredTool/,
    );
  });
});
