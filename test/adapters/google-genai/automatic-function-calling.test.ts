import { type CallableTool, type FunctionCall, GoogleGenAI, mcpToTool, type Part, type Tool } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { wrapTool, wrapTools } from 'otel-tool-calls/google-genai';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { functionResponsesIn, type GeminiReply, startFakeGeminiApi } from '../../helpers/fake-gemini-api.mjs';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
let closeApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeApi?.();
  closeApi = undefined;
});

const fc = (id: string, name: string, args: object) => ({ functionCall: { id, name, args } });

/** The model makes the calls of `turns[i]` at its i-th request, then answers `done`. */
function script(...turns: Array<GeminiReply['parts']>) {
  return (_request: unknown, index: number): GeminiReply => ({ parts: turns[index] ?? [{ text: 'done' }] });
}

async function clientOn(reply: ReturnType<typeof script>) {
  const api = await startFakeGeminiApi(reply);
  closeApi = api.close;
  return { ai: new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: api.baseUrl } }), api };
}

/** A CallableTool of its own declaring `names`: each call answers `{ name, city }`; Atlantis throws. */
function weatherTools(names: string[], batches: FunctionCall[][] = []): CallableTool {
  return {
    async tool(): Promise<Tool> {
      return {
        functionDeclarations: names.map((name) => ({
          name,
          description: `${name} of a city`,
          parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
        })),
      };
    },
    async callTool(functionCalls: FunctionCall[]): Promise<Part[]> {
      batches.push(functionCalls);
      const parts: Part[] = [];
      for (const call of functionCalls) {
        if (!call.name || !names.includes(call.name)) continue;
        const city = (call.args as { city?: string }).city;
        if (city === 'Atlantis') throw new Error(`no weather for ${city}`);
        telemetry.tracer.startSpan(`lookup ${call.name}`).end();
        parts.push({ functionResponse: { id: call.id, name: call.name, response: { name: call.name, city } } });
      }
      return parts;
    },
  };
}

const toolSpans = () => telemetry.spans().filter((span) => span.name.startsWith('execute_tool '));

describe('wrapTools with @google/genai automatic function calling', () => {
  it('generateContent: the batch reaches the tool’s callTool whole, in one call; one execute_tool span per FunctionCall, with its id; the parts as without the adapter', async () => {
    const { ai, api } = await clientOn(
      script([fc('fc_1', 'get_weather', { city: 'Oslo' }), fc('fc_2', 'get_time', { city: 'Oslo' })]),
    );
    const batches: FunctionCall[][] = [];
    const response = await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather and time in Oslo?',
      config: { tools: wrapTools([weatherTools(['get_weather', 'get_time'], batches)], telemetry.listener()) },
    });
    expect(response.text).toBe('done');
    // as the SDK hands it: one callTool with both calls
    expect(batches.map((batch) => batch.map((call) => call.id))).toEqual([['fc_1', 'fc_2']]);
    expect(toolSpans().map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['execute_tool get_weather', 'fc_1'],
      ['execute_tool get_time', 'fc_2'],
    ]);
    expect(functionResponsesIn(api.requests[1])).toEqual([
      { id: 'fc_1', name: 'get_weather', response: { name: 'get_weather', city: 'Oslo' } },
      { id: 'fc_2', name: 'get_time', response: { name: 'get_time', city: 'Oslo' } },
    ]);
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points.map((point) => point.attributes[ATTR_GEN_AI_TOOL_NAME]).sort()).toEqual(['get_time', 'get_weather']);
  });

  it('a CallableTool that answers its batch concurrently stays concurrent: every call of the batch starts before any ends', async () => {
    const { ai, api } = await clientOn(
      script([
        fc('fc_1', 'get_weather', { city: 'Oslo' }),
        fc('fc_2', 'get_weather', { city: 'Rome' }),
        fc('fc_3', 'get_weather', { city: 'Lima' }),
      ]),
    );
    const events: string[] = [];
    const concurrent: CallableTool = {
      tool: async () => ({ functionDeclarations: [{ name: 'get_weather' }] }),
      callTool: (calls) =>
        Promise.all(
          calls.map(async (call) => {
            events.push(`start ${call.id}`);
            await new Promise((resolve) => setImmediate(resolve));
            events.push(`end ${call.id}`);
            return { functionResponse: { id: call.id, name: call.name, response: { city: call.args?.city } } };
          }),
        ),
    };
    await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather?',
      config: { tools: wrapTools([concurrent], telemetry.listener()) },
    });
    expect(events.slice(0, 3).sort()).toEqual(['start fc_1', 'start fc_2', 'start fc_3']);
    expect(toolSpans().map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['fc_1', 'fc_2', 'fc_3']);
    expect(functionResponsesIn(api.requests[1]).map((part) => (part as { id: string }).id)).toEqual([
      'fc_1',
      'fc_2',
      'fc_3',
    ]);
  });

  it('a batch of one call runs inside its span: what the tool does for it is the span’s child', async () => {
    const { ai } = await clientOn(script([fc('fc_1', 'get_weather', { city: 'Oslo' })]));
    await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather in Oslo?',
      config: { tools: wrapTools([weatherTools(['get_weather', 'get_time'])], telemetry.listener()) },
    });
    const parent = telemetry.span('lookup get_weather').parentSpanContext?.spanId;
    expect(parent).toBe(telemetry.span('execute_tool get_weather').spanContext().spanId);
  });

  it("a batch whose callTool throws fails each of its calls: 'report' answers each with its own response.error", async () => {
    const { ai, api } = await clientOn(
      script([fc('fc_1', 'get_weather', { city: 'Oslo' }), fc('fc_2', 'get_weather', { city: 'Atlantis' })]),
    );
    const response = await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather?',
      config: { tools: wrapTools([weatherTools(['get_weather'])], telemetry.listener({ errorPolicy: 'report' })) },
    });
    expect(response.text).toBe('done');
    expect(toolSpans().map((span) => span.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.ERROR]);
    const answers = functionResponsesIn(api.requests[1]) as Array<{ id: string; response: { error: string } }>;
    expect(answers.map((answer) => answer.id)).toEqual(['fc_1', 'fc_2']);
    for (const answer of answers) expect(answer.response.error).toContain('no weather for Atlantis');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.reduce((n, point) => n + point.value, 0)).toBe(2);
  });

  it('generateContentStream: one span per call, the same parts', async () => {
    const { ai, api } = await clientOn(
      script([fc('fc_1', 'get_weather', { city: 'Oslo' }), fc('fc_2', 'get_weather', { city: 'Rome' })]),
    );
    const stream = await ai.models.generateContentStream({
      model: 'gemini-fake',
      contents: 'Weather in Oslo and Rome?',
      config: { tools: wrapTools([weatherTools(['get_weather'])], telemetry.listener()) },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text).toBe('done');
    expect(toolSpans().map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['fc_1', 'fc_2']);
    expect(functionResponsesIn(api.requests[1])).toHaveLength(2);
    // the stream hands each call alone: each call's work is its span's child
    const lookups = telemetry.spans().filter((span) => span.name === 'lookup get_weather');
    expect(lookups.map((span) => span.parentSpanContext?.spanId)).toEqual(
      toolSpans().map((span) => span.spanContext().spanId),
    );
  });

  it('two CallableTools handed every call of the batch: each call is observed once, by the tool that declares it', async () => {
    const { ai } = await clientOn(
      script([fc('fc_1', 'get_weather', { city: 'Oslo' }), fc('fc_2', 'get_time', { city: 'Oslo' })]),
    );
    const listener = telemetry.listener();
    await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather and time?',
      config: { tools: wrapTools([weatherTools(['get_weather']), weatherTools(['get_time'])], listener) },
    });
    expect(
      toolSpans()
        .map((span) => span.name)
        .sort(),
    ).toEqual(['execute_tool get_time', 'execute_tool get_weather']);
  });

  it("a tool that throws: 'rethrow' rejects generateContent as without the adapter; 'report' answers the model with response.error", async () => {
    const { ai } = await clientOn(script([fc('fc_1', 'get_weather', { city: 'Atlantis' })]));
    await expect(
      ai.models.generateContent({
        model: 'gemini-fake',
        contents: 'Atlantis?',
        config: { tools: wrapTools([weatherTools(['get_weather'])], telemetry.listener()) },
      }),
    ).rejects.toThrow('no weather for Atlantis');
    expect(telemetry.span('execute_tool get_weather').status.code).toBe(SpanStatusCode.ERROR);
    await closeApi?.();

    const reporting = await clientOn(script([fc('fc_2', 'get_weather', { city: 'Atlantis' })]));
    const response = await reporting.ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Atlantis?',
      config: { tools: wrapTools([weatherTools(['get_weather'])], telemetry.listener({ errorPolicy: 'report' })) },
    });
    expect(response.text).toBe('done');
    const [answered] = functionResponsesIn(reporting.api.requests[1]) as Array<{
      id: string;
      response: { error: string };
    }>;
    expect(answered?.id).toBe('fc_2');
    expect(answered?.response.error).toContain('no weather for Atlantis');
  });

  it('mcpToTool(client): each MCP tool call is a span; an isError result is a failure (tool_error) handed on unchanged', async () => {
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    server.registerTool(
      'get_weather',
      { description: 'Weather', inputSchema: { city: z.string() } },
      async ({ city }) =>
        city === 'Atlantis'
          ? { content: [{ type: 'text' as const, text: `no station in ${city}` }], isError: true }
          : { content: [{ type: 'text' as const, text: `rain in ${city}` }] },
    );
    const client = new Client({ name: 'agent', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    const { ai, api } = await clientOn(
      script([fc('fc_1', 'get_weather', { city: 'Oslo' }), fc('fc_2', 'get_weather', { city: 'Atlantis' })]),
    );
    const response = await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather?',
      config: { tools: wrapTools([mcpToTool(client)], telemetry.listener()) },
    });
    expect(response.text).toBe('done');
    const [ok, failed] = toolSpans();
    expect(ok?.status.code).toBe(SpanStatusCode.UNSET);
    expect(failed?.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => point.value)).toEqual([1]);
    const responses = functionResponsesIn(api.requests[1]) as Array<{ response: { error?: { isError?: boolean } } }>;
    expect(responses).toHaveLength(2);
    expect(responses[1]?.response.error?.isError).toBe(true);
    await client.close();
  });

  it('other entries are returned as they are; the app’s tool is never changed; a wrapped tool wrapped again is the same', () => {
    const declarations: Tool = { functionDeclarations: [{ name: 'plain' }] };
    const tool = weatherTools(['get_weather']);
    const before = tool.callTool;
    const [wrapped, plain] = wrapTools([tool, declarations], telemetry.listener());
    expect(plain).toBe(declarations);
    expect(wrapped).not.toBe(tool);
    expect(tool.callTool).toBe(before);
    expect(wrapTool(wrapped, telemetry.listener())).toBe(wrapped);
    expect(() => wrapTool({} as never, telemetry.listener())).toThrow(/wrapTool: `tool` must be a CallableTool/);
  });
});

describe('wrapTools: the declarations a call is judged by', () => {
  it('a function the tool declares after a first request is observed at the next; the declarations are read no more often than the SDK reads them', async () => {
    const { ai } = await clientOn((_request, index) =>
      index % 2 === 0
        ? { parts: [fc(`fc_${index}`, index === 0 ? 'get_weather' : 'get_time', { city: 'Oslo' })] }
        : { parts: [{ text: 'done' }] },
    );
    const names = ['get_weather'];
    const growing = weatherTools(names);
    const read = growing.tool.bind(growing);
    let reads = 0;
    growing.tool = () => {
      reads += 1;
      return read();
    };
    const tools = wrapTools([growing], telemetry.listener());
    await ai.models.generateContent({ model: 'gemini-fake', contents: 'Weather?', config: { tools } });
    const readsByOneRequest = reads;
    names.push('get_time');
    await ai.models.generateContent({ model: 'gemini-fake', contents: 'Time?', config: { tools } });
    expect(toolSpans().map((span) => span.name)).toEqual(['execute_tool get_weather', 'execute_tool get_time']);
    // the SDK's own reads, passed on: the stand-in adds none
    const bare = weatherTools(['get_weather']);
    let bareReads = 0;
    const bareRead = bare.tool.bind(bare);
    bare.tool = () => {
      bareReads += 1;
      return bareRead();
    };
    await ai.models.generateContent({ model: 'gemini-fake', contents: 'Weather?', config: { tools: [bare] } });
    expect(readsByOneRequest).toBe(bareReads);
    expect(reads).toBe(2 * bareReads);
  });
});

describe('wrapTools: a call of a function no tool declares (the model’s mistake)', () => {
  const misspelt = () =>
    script([fc('fc_1', 'wheather', { city: 'Oslo' }), fc('fc_2', 'get_weather', { city: 'Oslo' })]);

  it("one failed span (the name the model used, error source model), one sample and one error as _unknown; under 'rethrow' the model gets what it gets without the package", async () => {
    const { ai, api } = await clientOn(misspelt());
    const response = await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather?',
      config: { tools: wrapTools([weatherTools(['get_weather'])], telemetry.listener()) },
    });
    expect(response.text).toBe('done');
    const [wrong, right] = toolSpans();
    expect(wrong?.name).toBe('execute_tool wheather');
    expect(wrong?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('fc_1');
    expect(wrong?.status.code).toBe(SpanStatusCode.ERROR);
    expect(wrong?.attributes[ATTR_ERROR_TYPE]).toBe('UndeclaredFunctionError');
    expect(wrong?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    expect(right?.name).toBe('execute_tool get_weather');
    expect(right?.status.code).toBe(SpanStatusCode.UNSET);

    const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    const count = (name: string) =>
      samples
        .filter((point) => point.attributes[ATTR_GEN_AI_TOOL_NAME] === name)
        .reduce((n, point) => n + point.value.count, 0);
    expect([count('_unknown'), count('get_weather'), count('wheather')]).toEqual([1, 1, 0]);
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value])).toEqual([['_unknown', 1]]);
    expect(errors[0]?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    // as without the package: no answer for the misspelt call
    expect(functionResponsesIn(api.requests[1])).toEqual([
      { id: 'fc_2', name: 'get_weather', response: { name: 'get_weather', city: 'Oslo' } },
    ]);
  });

  it("'report': the model reads the listener's text as the misspelt call's answer", async () => {
    const { ai, api } = await clientOn(misspelt());
    await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather?',
      config: { tools: wrapTools([weatherTools(['get_weather'])], telemetry.listener({ errorPolicy: 'report' })) },
    });
    const answers = functionResponsesIn(api.requests[1]) as Array<{ id: string; name: string; response: object }>;
    expect(answers).toEqual([
      { id: 'fc_2', name: 'get_weather', response: { name: 'get_weather', city: 'Oslo' } },
      {
        id: 'fc_1',
        name: 'wheather',
        response: { error: "Tool 'wheather' failed: the model called a function that no tool declares" },
      },
    ]);
  });

  it('several CallableTools: a call another tool of the list declares is not the model’s mistake; a call none declares is counted once', async () => {
    const { ai, api } = await clientOn(
      script([
        fc('fc_1', 'get_weather', { city: 'Oslo' }),
        fc('fc_2', 'get_time', { city: 'Oslo' }),
        fc('fc_3', 'wheather', { city: 'Oslo' }),
      ]),
    );
    await ai.models.generateContent({
      model: 'gemini-fake',
      contents: 'Weather and time?',
      config: {
        tools: wrapTools(
          [weatherTools(['get_weather']), weatherTools(['get_time'])],
          telemetry.listener({ errorPolicy: 'report' }),
        ),
      },
    });
    expect(toolSpans().map((span) => [span.name, span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]])).toEqual([
      ['execute_tool wheather', 'model'],
      ['execute_tool get_weather', undefined],
      ['execute_tool get_time', undefined],
    ]);
    expect(functionResponsesIn(api.requests[1]).map((part) => (part as { id: string }).id)).toEqual([
      'fc_1',
      'fc_3',
      'fc_2',
    ]);
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.reduce((n, point) => n + point.value, 0)).toBe(1);
  });
});
