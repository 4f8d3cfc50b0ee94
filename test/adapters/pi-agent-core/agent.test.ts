import { Agent, type AgentTool, agentLoop } from '@mariozechner/pi-agent-core';
import { Type } from '@mariozechner/pi-ai';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentAgent, wrapTool, wrapTools } from 'otel-tool-calls/pi-agent-core';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { inMemoryLogs } from '../../helpers/decision-logs.js';
import { type ChatReply, startFakeChatCompletions, toolMessagesIn } from '../../helpers/fake-chat-completions.mjs';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { fakeApiModel } from '../../helpers/pi-model.mjs';

const telemetry = useTestTelemetry();
let closeApi: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeApi?.();
  closeApi = undefined;
});

/** The model makes the calls of `turns[i]` at its i-th request, then answers `done`. */
function script(...turns: ChatReply['toolCalls'][]) {
  return (_request: unknown, index: number): ChatReply =>
    index < turns.length ? { toolCalls: turns[index] } : { content: 'done' };
}

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) });

async function apiFor(reply: ReturnType<typeof script>) {
  const api = await startFakeChatCompletions(reply);
  closeApi = api.close;
  return api;
}

/** A tool that fails for Atlantis and opens a span of its own otherwise. */
function weatherTool(): AgentTool<ReturnType<typeof weatherParameters>> {
  return {
    name: 'get_weather',
    label: 'Weather',
    description: 'Weather of a city',
    parameters: weatherParameters(),
    execute: async (_toolCallId, { city }) => {
      if (city === 'Atlantis') throw new TypeError(`no weather for ${city}`);
      telemetry.tracer.startSpan('weather lookup').end();
      return { content: [{ type: 'text', text: `rain in ${city}` }], details: { city } };
    },
  };
}
const weatherParameters = () => Type.Object({ city: Type.String() });

function agentOn(
  api: { baseURL: string },
  tools: AgentTool[],
  options: Partial<ConstructorParameters<typeof Agent>[0]> = {},
) {
  return new Agent({
    initialState: { model: fakeApiModel(api.baseURL), tools, systemPrompt: 'You help.' },
    getApiKey: () => 'test-key',
    ...options,
  });
}

function toolSpans() {
  return telemetry.spans().filter((span) => span.name.startsWith('execute_tool '));
}

/** The tool results the agent's transcript holds: `[id, isError, text]` each. */
function toolResultsOf(agent: Agent) {
  return agent.state.messages
    .filter((message) => message.role === 'toolResult')
    .map((message) => [
      message.toolCallId,
      message.isError,
      message.content.map((part) => (part.type === 'text' ? part.text : part.type)).join(''),
    ]);
}

/** Runs one prompt on a bare agent and returns what the model read and what the transcript holds. */
async function bareRun(reply: ReturnType<typeof script>, tools: AgentTool[]) {
  const api = await startFakeChatCompletions(reply);
  try {
    const agent = agentOn(api, tools);
    await agent.prompt('Weather?');
    return { sent: api.requests.map((request) => toolMessagesIn(request)), results: toolResultsOf(agent) };
  } finally {
    await api.close();
  }
}

describe('instrumentAgent with a pi Agent', () => {
  for (const toolExecution of ['parallel', 'sequential'] as const) {
    it(`one execute_tool span per call, with the model's call id, active inside the tool; results unchanged (${toolExecution})`, async () => {
      const reply = script([
        call('call_1', 'get_weather', { city: 'Oslo' }),
        call('call_2', 'get_weather', { city: 'Bergen' }),
      ]);
      const bare = await bareRun(reply, [weatherTool()]);
      const api = await apiFor(reply);
      const agent = instrumentAgent(agentOn(api, [weatherTool()], { toolExecution }), telemetry.listener());
      await agent.prompt('Weather?');

      expect(
        toolSpans()
          .map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])
          .sort(),
      ).toEqual([
        ['execute_tool get_weather', 'call_1'],
        ['execute_tool get_weather', 'call_2'],
      ]);
      // the bare run's lookups have no parent
      const lookups = telemetry
        .spans()
        .filter((span) => span.name === 'weather lookup' && span.parentSpanContext !== undefined);
      expect(lookups.map((lookup) => lookup.parentSpanContext?.spanId).sort()).toEqual(
        toolSpans()
          .map((span) => span.spanContext().spanId)
          .sort(),
      );
      expect(api.requests.map((request) => toolMessagesIn(request))).toEqual(bare.sent);
      expect(toolResultsOf(agent)).toEqual(bare.results);
      expect(toolResultsOf(agent)).toEqual([
        ['call_1', false, 'rain in Oslo'],
        ['call_2', false, 'rain in Bergen'],
      ]);
      const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(points.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value.count])).toEqual([
        ['get_weather', 2],
      ]);
    });
  }

  it("the agent's sessionId is the conversation id; an agent with none gets none", async () => {
    const reply = script([call('call_1', 'get_weather', { city: 'Oslo' })]);
    const api = await apiFor(reply);
    const withSession = instrumentAgent(
      agentOn(api, [weatherTool()], { sessionId: 'session-42' }),
      telemetry.listener(),
    );
    await withSession.prompt('Weather?');
    expect(telemetry.span('execute_tool get_weather').attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('session-42');

    const other = await startFakeChatCompletions(reply);
    try {
      const listener = telemetry.listener();
      const without = instrumentAgent(agentOn(other, [weatherTool()]), listener);
      await without.prompt('Weather?');
    } finally {
      await other.close();
    }
    const spans = toolSpans();
    expect(spans).toHaveLength(2);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_CONVERSATION_ID])).toEqual(['session-42', undefined]);
  });

  it("a tool that throws: 'rethrow' (the default) leaves pi's own error result, the model reads the error's message; the span records the error", async () => {
    const reply = script([call('call_1', 'get_weather', { city: 'Atlantis' })]);
    const bare = await bareRun(reply, [weatherTool()]);
    const api = await apiFor(reply);
    const agent = instrumentAgent(agentOn(api, [weatherTool()]), telemetry.listener());
    await agent.prompt('Weather?');

    expect(toolResultsOf(agent)).toEqual([['call_1', true, 'no weather for Atlantis']]);
    expect(toolResultsOf(agent)).toEqual(bare.results);
    expect(api.requests.map((request) => toolMessagesIn(request))).toEqual(bare.sent);
    const span = telemetry.span('execute_tool get_weather');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('TypeError');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => point.value)).toEqual([1]);
  });

  it("a tool that throws: 'report' makes the listener's text pi's failed tool result, which the model reads", async () => {
    const api = await apiFor(script([call('call_1', 'get_weather', { city: 'Atlantis' })]));
    const listener = telemetry.listener({
      errorPolicy: 'report',
      formatError: (_name, error) => `sorry: ${(error as Error).message}`,
    });
    const agent = instrumentAgent(agentOn(api, [weatherTool()]), listener);
    await agent.prompt('Weather?');

    expect(toolResultsOf(agent)).toEqual([['call_1', true, 'sorry: no weather for Atlantis']]);
    expect(toolMessagesIn(api.requests[1])).toEqual([
      { tool_call_id: 'call_1', content: 'sorry: no weather for Atlantis' },
    ]);
    const span = telemetry.span('execute_tool get_weather');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it('a tool the agent does not have is a call the model got wrong (_unknown in the metrics, error source model), with its id; rethrow keeps pi’s answer', async () => {
    const reply = script([call('call_1', 'get_wether', { city: 'Oslo' })]);
    const bare = await bareRun(reply, [weatherTool()]);
    const api = await apiFor(reply);
    const agent = instrumentAgent(agentOn(api, [weatherTool()], { sessionId: 'session-7' }), telemetry.listener());
    await agent.prompt('Weather?');

    const span = telemetry.span('execute_tool get_wether');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_1');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('ToolNotFoundError');
    expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('session-7');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(
      errors.map((point) => [
        point.attributes[ATTR_GEN_AI_TOOL_NAME],
        point.attributes[ATTR_TOOL_CALL_ERROR_SOURCE],
        point.value,
      ]),
    ).toEqual([[GEN_AI_TOOL_NAME_VALUE_UNKNOWN, 'model', 1]]);
    expect(toolResultsOf(agent)).toEqual([['call_1', true, 'Tool get_wether not found']]);
    expect(toolResultsOf(agent)).toEqual(bare.results);
  });

  it("a tool the agent does not have, under 'report': the model reads the listener's text", async () => {
    const api = await apiFor(script([call('call_1', 'get_wether', { city: 'Oslo' })]));
    const agent = instrumentAgent(agentOn(api, [weatherTool()]), telemetry.listener({ errorPolicy: 'report' }));
    await agent.prompt('Weather?');
    const [message] = toolMessagesIn(api.requests[1]);
    expect(message?.content).toBe("Tool 'get_wether' failed: Tool get_wether not found");
    expect(toolResultsOf(agent)).toEqual([['call_1', true, "Tool 'get_wether' failed: Tool get_wether not found"]]);
  });

  it("arguments the tool's schema refuses are the model's error (invalid_input): the tool never runs, no arguments on the span, pi's answer kept", async () => {
    let ran = 0;
    const counted: AgentTool<ReturnType<typeof weatherParameters>> = {
      ...weatherTool(),
      execute: async () => {
        ran++;
        return { content: [{ type: 'text', text: 'ran' }], details: {} };
      },
    };
    const reply = script([call('call_1', 'get_weather', { town: 'Oslo' })]);
    const bare = await bareRun(reply, [counted]);
    expect(ran).toBe(0);
    const api = await apiFor(reply);
    const agent = instrumentAgent(agentOn(api, [counted]), telemetry.listener());
    await agent.prompt('Weather?');

    expect(ran).toBe(0);
    const span = telemetry.span('execute_tool get_weather');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_1');
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('InvalidToolArgumentsError');
    // pi's text quotes the arguments: not on the span unless content capture is on
    expect(span.status.message).toBe("Invalid input for tool 'get_weather'");
    expect(JSON.stringify(span.events)).not.toContain('Oslo');
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value])).toEqual([['get_weather', 1]]);
    expect(toolResultsOf(agent)).toEqual(bare.results);
    expect(String(toolResultsOf(agent)[0]?.[2])).toContain('Received arguments');
  });

  it("a call the app's beforeToolCall blocks is a deny decision and no span; the hook runs as given and the model reads its reason", async () => {
    const { loggerProvider, decisions } = inMemoryLogs();
    const api = await apiFor(
      script([call('call_1', 'get_weather', { city: 'Oslo' }), call('call_2', 'get_weather', { city: 'Paris' })]),
    );
    const seen: unknown[] = [];
    const options = {
      beforeToolCall: async function (this: unknown, context: { toolCall: { id: string }; args: unknown }) {
        seen.push([context.toolCall.id, context.args]);
        return context.toolCall.id === 'call_2' ? { block: true, reason: 'Paris is off limits' } : undefined;
      },
    };
    const agent = instrumentAgent(agentOn(api, [weatherTool()], options), telemetry.listener({ loggerProvider }));
    await agent.prompt('Weather?');

    expect(seen).toEqual([
      ['call_1', { city: 'Oslo' }],
      ['call_2', { city: 'Paris' }],
    ]);
    expect(agent.beforeToolCall).toBe(options.beforeToolCall);
    expect(toolSpans().map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_1']);
    expect(await decisions()).toEqual(['get_weather call_2 deny']);
    expect(toolResultsOf(agent)).toEqual([
      ['call_1', false, 'rain in Oslo'],
      ['call_2', true, 'Paris is off limits'],
    ]);
    expect(await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).toEqual([]);
  });

  it('tools set after instrumentAgent are observed from the next run; the state keeps the app’s own tools', async () => {
    const api = await apiFor(
      script([call('call_1', 'get_weather', { city: 'Oslo' })], [], [call('call_2', 'get_time', { city: 'Oslo' })]),
    );
    const weather = weatherTool();
    const agent = instrumentAgent(agentOn(api, [weather]), telemetry.listener());
    await agent.prompt('Weather?');
    const time: AgentTool = {
      name: 'get_time',
      label: 'Time',
      description: 'Time in a city',
      parameters: Type.Object({ city: Type.String() }),
      execute: async () => ({ content: [{ type: 'text', text: 'noon' }], details: {} }),
    };
    agent.state.tools = [weather, time];
    await agent.prompt('Time?');

    expect(toolSpans().map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
      ['execute_tool get_weather', 'call_1'],
      ['execute_tool get_time', 'call_2'],
    ]);
    expect(agent.state.tools[0]).toBe(weather);
    expect(agent.state.tools[1]).toBe(time);
    expect(Object.keys(agent)).not.toContain('createContextSnapshot');
  });

  it('observes in place: a tool class with a #private field and state across calls runs on itself', async () => {
    class Counter implements AgentTool {
      #calls = 0;
      name = 'count';
      label = 'Count';
      description = 'Counts';
      parameters = Type.Object({});
      get calls() {
        return this.#calls;
      }
      async execute(toolCallId: string) {
        this.#calls++;
        return { content: [{ type: 'text' as const, text: `${toolCallId}: ${this.#calls}` }], details: {} };
      }
    }
    const counter = new Counter();
    const api = await apiFor(script([call('call_1', 'count', {})], [call('call_2', 'count', {})]));
    const agent = instrumentAgent(agentOn(api, [counter]), telemetry.listener());
    await agent.prompt('Count');
    expect(counter.calls).toBe(2);
    expect(toolResultsOf(agent)).toEqual([
      ['call_1', false, 'call_1: 1'],
      ['call_2', false, 'call_2: 2'],
    ]);
    expect(toolSpans()).toHaveLength(2);
  });

  it('an agent instrumented twice is the same agent, observed once; a wrong argument is a TypeError naming it', async () => {
    const api = await apiFor(script([call('call_1', 'get_weather', { city: 'Oslo' })]));
    const agent = agentOn(api, [weatherTool()]);
    expect(instrumentAgent(agent, telemetry.listener())).toBe(agent);
    expect(instrumentAgent(agent, telemetry.listener())).toBe(agent);
    await agent.prompt('Weather?');
    expect(toolSpans()).toHaveLength(1);
    expect(() => instrumentAgent({} as Agent, telemetry.listener())).toThrow(
      /instrumentAgent: `agent` must be an Agent of @mariozechner\/pi-agent-core/,
    );
    expect(() => instrumentAgent(agent, 'nope' as never)).toThrow(
      /instrumentAgent: `listener` must be a ToolCallListener/,
    );
  });
});

describe('instrumentAgent never breaks the app', () => {
  it('an Agent that takes no new property (Object.preventExtensions) is returned as it is and runs as without instrumentAgent, unobserved', async () => {
    const api = await apiFor(script([call('call_1', 'get_weather', { city: 'Oslo' })]));
    const agent = Object.preventExtensions(agentOn(api, [weatherTool()]));
    expect(instrumentAgent(agent, telemetry.listener())).toBe(agent);
    await agent.prompt('Weather?');
    expect(toolResultsOf(agent)).toEqual([['call_1', false, 'rain in Oslo']]);
    expect(toolSpans()).toEqual([]);
  });
});

describe('wrapTools with the low-level agentLoop', () => {
  it("one span per call the loop runs, with the model's call id; the app's tools unchanged", async () => {
    const api = await apiFor(script([call('call_1', 'get_weather', { city: 'Oslo' })]));
    const weather = weatherTool();
    const before = weather.execute;
    const [wrapped, other] = wrapTools([weather, { not: 'a tool' }], telemetry.listener());
    expect(other).toEqual({ not: 'a tool' });
    expect(weather.execute).toBe(before);
    expect(wrapTool(wrapped, telemetry.listener())).toBe(wrapped);
    const stream = agentLoop(
      [{ role: 'user', content: 'Weather?', timestamp: Date.now() }],
      { systemPrompt: 'You help.', messages: [], tools: [wrapped] },
      {
        model: fakeApiModel(api.baseURL),
        apiKey: 'test-key',
        convertToLlm: (messages) => messages.filter((message) => message.role !== undefined) as never,
      },
    );
    const messages = await stream.result();
    expect(messages.filter((message) => message.role === 'toolResult').map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'rain in Oslo' }],
    ]);
    expect(telemetry.span('execute_tool get_weather').attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_1');
    expect(() => wrapTool({ name: 'x' } as never, telemetry.listener())).toThrow(
      /wrapTool: `tool` must be an AgentTool/,
    );
    expect(() => wrapTools('nope' as never, telemetry.listener())).toThrow(/wrapTools: `tools` must be an array/);
  });
});
