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
  it('generateContent: one execute_tool span per FunctionCall of a batch, with its id, the tool’s work inside it; the parts as without the adapter', async () => {
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
    expect(toolSpans().map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['execute_tool get_weather', 'fc_1'],
      ['execute_tool get_time', 'fc_2'],
    ]);
    for (const name of ['get_weather', 'get_time']) {
      const parent = telemetry.span(`lookup ${name}`).parentSpanContext?.spanId;
      expect(parent).toBe(telemetry.span(`execute_tool ${name}`).spanContext().spanId);
    }
    // the original called once per FunctionCall
    expect(batches.map((batch) => batch.map((call) => call.id))).toEqual([['fc_1'], ['fc_2']]);
    expect(functionResponsesIn(api.requests[1])).toEqual([
      { id: 'fc_1', name: 'get_weather', response: { name: 'get_weather', city: 'Oslo' } },
      { id: 'fc_2', name: 'get_time', response: { name: 'get_time', city: 'Oslo' } },
    ]);
    const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(points.map((point) => point.attributes[ATTR_GEN_AI_TOOL_NAME]).sort()).toEqual(['get_time', 'get_weather']);
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
