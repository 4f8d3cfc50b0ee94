import {
  BedrockAgentRuntimeClient,
  InvokeAgentCommand,
  type InvokeAgentCommandInput,
  InvokeInlineAgentCommand,
} from '@aws-sdk/client-bedrock-agent-runtime';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { instrumentClient, UNANSWERED_AFTER_MS } from 'otel-tool-calls/bedrock-agent-runtime';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AgentEvent, startFakeBedrockAgent } from '../../helpers/fake-bedrock-agent.mjs';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
let closeApi: (() => Promise<void>) | undefined;
let client: BedrockAgentRuntimeClient | undefined;
afterEach(async () => {
  vi.useRealTimers();
  client?.destroy();
  client = undefined;
  await closeApi?.();
  closeApi = undefined;
});

const fn = (actionGroup: string, name: string, parameters: Record<string, string>) => ({
  functionInvocationInput: {
    actionGroup,
    function: name,
    parameters: Object.entries(parameters).map(([key, value]) => ({ name: key, type: 'string', value })),
    actionInvocationType: 'RESULT',
  },
});
const returnControl = (invocationId: string, ...invocationInputs: unknown[]): AgentEvent => ({
  returnControl: { invocationId, invocationInputs },
});
const text = (value: string): AgentEvent => ({ chunk: { text: value } });

/** The agent returns control at each request in `turns` (by index), then answers `done`. */
async function agent(...turns: AgentEvent[][]) {
  const api = await startFakeBedrockAgent((_request, index) => turns[index] ?? [text('done')]);
  closeApi = api.close;
  client = new BedrockAgentRuntimeClient({
    region: 'us-east-1',
    endpoint: api.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return { api, client };
}

interface Handed {
  readonly invocationId: string;
  readonly inputs: Array<{
    functionInvocationInput?: { actionGroup: string; function: string; parameters: Array<{ value: string }> };
  }>;
}

/** Sends one InvokeAgent command and reads its completion: the text, and the return of control if any. */
async function invoke(target: BedrockAgentRuntimeClient, input: Partial<InvokeAgentCommandInput>) {
  const response = await target.send(
    new InvokeAgentCommand({ agentId: 'AGENT', agentAliasId: 'ALIAS', sessionId: 'session-1', ...input }),
  );
  let said = '';
  let handed: Handed | undefined;
  for await (const event of response.completion ?? []) {
    if (event.chunk?.bytes) said += new TextDecoder().decode(event.chunk.bytes);
    if (event.returnControl) {
      handed = {
        invocationId: event.returnControl.invocationId as string,
        inputs: (event.returnControl.invocationInputs ?? []) as Handed['inputs'],
      };
    }
  }
  return { said, handed };
}

const result = (actionGroup: string, name: string, body: string, failed = false) => ({
  functionResult: {
    actionGroup,
    function: name,
    responseBody: { TEXT: { body } },
    ...(failed ? { responseState: 'FAILURE' as const } : {}),
  },
});

function toolSpans(): ReadableSpan[] {
  return telemetry.spans().filter((span) => span.name.startsWith('execute_tool '));
}

const nanos = (time: [number, number]) => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);

/** The app's own loop: runs the calls the agent hands it, each in a span of the app's, and sends the results back. */
async function conversation(target: BedrockAgentRuntimeClient) {
  const transcript: unknown[] = [];
  let turn = await invoke(target, { inputText: 'Weather and time in Oslo?' });
  transcript.push(turn);
  while (turn.handed) {
    const results = [];
    for (const input of turn.handed.inputs) {
      const call = input.functionInvocationInput;
      if (!call) continue;
      const span = telemetry.tracer.startSpan(`app runs ${call.function}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      span.end();
      const city = call.parameters[0]?.value ?? '';
      results.push(
        city === 'Atlantis'
          ? result(call.actionGroup, call.function, `no ${call.function} for ${city}`, true)
          : result(call.actionGroup, call.function, `${call.function} of ${city}: fine`),
      );
    }
    turn = await invoke(target, {
      sessionState: { invocationId: turn.handed.invocationId, returnControlInvocationResults: results },
    });
    transcript.push(turn);
  }
  return transcript;
}

describe('instrumentClient: a Bedrock agent returning control (InvokeAgent)', () => {
  it('each call of a returnControl is one span from the event the app is handed to the results it sends back, with the invocationId and the session; the app and the agent see what they see without the package', async () => {
    const turns = [
      [
        text('Let me check. '),
        returnControl(
          'inv-1',
          fn('weather', 'get_weather', { city: 'Oslo' }),
          fn('clock', 'get_time', { city: 'Oslo' }),
        ),
      ],
    ];
    const bare = await agent(...turns);
    const bareTranscript = await conversation(bare.client);
    const bareRequests = bare.api.requests.map((request) => request.body);
    client?.destroy();
    await closeApi?.();

    const observed = await agent(...turns);
    instrumentClient(observed.client, telemetry.listener());
    expect(await conversation(observed.client)).toEqual(bareTranscript);
    expect(observed.api.requests.map((request) => request.body)).toEqual(bareRequests);

    const spans = toolSpans();
    expect(
      spans.map((span) => [
        span.name,
        span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
        span.attributes[ATTR_GEN_AI_CONVERSATION_ID],
        span.status.code,
      ]),
    ).toEqual([
      ['execute_tool get_weather', 'inv-1', 'session-1', SpanStatusCode.UNSET],
      ['execute_tool get_time', 'inv-1', 'session-1', SpanStatusCode.UNSET],
    ]);
    for (const span of spans) {
      // the observed run's (the bare run made its own first)
      const ran = telemetry
        .spans()
        .filter((each) => each.name === `app runs ${span.name.slice('execute_tool '.length)}`)
        .at(-1) as ReadableSpan;
      expect(nanos(span.startTime) <= nanos(ran.startTime)).toBe(true);
      expect(nanos(span.endTime) >= nanos(ran.endTime)).toBe(true);
    }
    const samples = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(samples.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value.count]).sort()).toEqual([
      ['get_time', 1],
      ['get_weather', 1],
    ]);
  });

  it("a result with responseState FAILURE is the call's error (its body the message), matched to its call by action group and function", async () => {
    const { client: target } = await agent([
      returnControl('inv-2', fn('weather', 'lookup', { city: 'Oslo' }), fn('atlas', 'lookup', { city: 'Atlantis' })),
    ]);
    instrumentClient(target, telemetry.listener({ captureContent: true }));
    await invoke(target, { inputText: 'Where?' });
    // answered in the other order: each result goes to the call of its action group
    await invoke(target, {
      sessionState: {
        invocationId: 'inv-2',
        returnControlInvocationResults: [
          result('atlas', 'lookup', 'no lookup for Atlantis', true),
          result('weather', 'lookup', 'rain'),
        ],
      },
    });
    const byInput = new Map(toolSpans().map((span) => [span.attributes['gen_ai.tool.call.arguments'], span]));
    const failed = byInput.get('{"city":"Atlantis"}');
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no lookup for Atlantis' });
    expect(failed?.attributes[ATTR_ERROR_TYPE]).toBe('ReturnControlFailureError');
    expect(byInput.get('{"city":"Oslo"}')?.status.code).toBe(SpanStatusCode.UNSET);
    const errors = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(errors.map((point) => [point.attributes[ATTR_GEN_AI_TOOL_NAME], point.value])).toEqual([['lookup', 1]]);
  });

  it('an API action group: the call is named by its method and path, its parameters and request body its input', async () => {
    const { client: target } = await agent([
      returnControl('inv-3', {
        apiInvocationInput: {
          actionGroup: 'bookings',
          httpMethod: 'POST',
          apiPath: '/bookings',
          parameters: [{ name: 'city', type: 'string', value: 'Oslo' }],
          requestBody: {
            content: { 'application/json': { properties: [{ name: 'nights', type: 'integer', value: '2' }] } },
          },
        },
      }),
    ]);
    instrumentClient(target, telemetry.listener({ captureContent: true }));
    await invoke(target, { inputText: 'Book' });
    await invoke(target, {
      sessionState: {
        invocationId: 'inv-3',
        returnControlInvocationResults: [
          {
            apiResult: {
              actionGroup: 'bookings',
              httpMethod: 'POST',
              apiPath: '/bookings',
              httpStatusCode: 200,
              responseBody: { 'application/json': { body: '{"booked":true}' } },
            },
          },
        ],
      },
    });
    const [span] = toolSpans();
    expect(span?.name).toBe('execute_tool POST /bookings');
    expect(span?.attributes['gen_ai.tool.call.arguments']).toBe(
      '{"parameters":{"city":"Oslo"},"requestBody":{"nights":"2"}}',
    );
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a call never answered ends when its session goes on without it, or when the app ends the session: failed as unanswered', async () => {
    const { client: target } = await agent(
      [returnControl('inv-4', fn('weather', 'get_weather', { city: 'Oslo' }))],
      [returnControl('inv-5', fn('weather', 'get_weather', { city: 'Bergen' }))],
    );
    instrumentClient(target, telemetry.listener());
    await invoke(target, { inputText: 'Weather?' });
    expect(toolSpans()).toHaveLength(0);
    await invoke(target, { inputText: 'Never mind: Bergen?' });
    await invoke(target, { inputText: 'Bye', endSession: true });
    expect(
      toolSpans().map((span) => [
        span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
        span.attributes[ATTR_ERROR_TYPE],
        span.status.message,
      ]),
    ).toEqual([
      ['inv-4', 'ReturnControlUnansweredError', 'Unanswered: the session went on without its result'],
      ['inv-5', 'ReturnControlUnansweredError', 'Unanswered: the app ended the session without its result'],
    ]);
  });

  it(`a call never answered and whose session never comes back ends after ${UNANSWERED_AFTER_MS / 1000} s, the longest a session stays idle`, async () => {
    const { client: target } = await agent([returnControl('inv-6', fn('weather', 'get_weather', { city: 'Oslo' }))]);
    instrumentClient(target, telemetry.listener());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await invoke(target, { inputText: 'Weather?' });
    vi.advanceTimersByTime(UNANSWERED_AFTER_MS - 1);
    expect(toolSpans()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    await Promise.resolve();
    expect(toolSpans().map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.status.message])).toEqual([
      ['inv-6', 'Unanswered: no answer within an hour'],
    ]);
  });

  it('an app that stops reading the completion early: the stream ends as without the package, the calls handed so far stay open', async () => {
    const { client: target } = await agent([
      returnControl('inv-7', fn('weather', 'get_weather', { city: 'Oslo' })),
      text('never read'),
    ]);
    instrumentClient(target, telemetry.listener());
    const response = await target.send(
      new InvokeAgentCommand({ agentId: 'AGENT', agentAliasId: 'ALIAS', sessionId: 'session-1', inputText: 'x' }),
    );
    for await (const event of response.completion ?? []) if (event.returnControl) break;
    await invoke(target, {
      sessionState: {
        invocationId: 'inv-7',
        returnControlInvocationResults: [result('weather', 'get_weather', 'rain')],
      },
    });
    expect(toolSpans().map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.status.code])).toEqual([
      ['inv-7', SpanStatusCode.UNSET],
    ]);
  });
});

describe('instrumentClient: an inline agent returning control (InvokeInlineAgent)', () => {
  it('the same: one span per call handed, ended by the inlineSessionState results, a FAILURE its error', async () => {
    const { client: target } = await agent([
      returnControl(
        'inv-i',
        fn('weather', 'get_weather', { city: 'Oslo' }),
        fn('weather', 'get_weather', { city: 'Atlantis' }),
      ),
    ]);
    instrumentClient(target, telemetry.listener());
    const inline = {
      sessionId: 'inline-1',
      foundationModel: 'model',
      instruction: 'You answer questions about weather.',
    };
    const first = await target.send(new InvokeInlineAgentCommand({ ...inline, inputText: 'Weather?' }));
    for await (const _event of first.completion ?? []) {
      // read to its end, as an app does
    }
    const second = await target.send(
      new InvokeInlineAgentCommand({
        ...inline,
        inlineSessionState: {
          invocationId: 'inv-i',
          returnControlInvocationResults: [
            result('weather', 'get_weather', 'rain'),
            result('weather', 'get_weather', 'no weather for Atlantis', true),
          ],
        },
      }),
    );
    for await (const _event of second.completion ?? []) {
      // the agent's answer
    }
    expect(
      toolSpans().map((span) => [
        span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
        span.attributes[ATTR_GEN_AI_CONVERSATION_ID],
        span.attributes[ATTR_ERROR_TYPE],
      ]),
    ).toEqual([
      ['inv-i', 'inline-1', undefined],
      ['inv-i', 'inline-1', 'ReturnControlFailureError'],
    ]);
  });
});

describe('instrumentClient, its arguments', () => {
  it('is a TypeError for what is not a client, or a listener that is not one', () => {
    expect(() => instrumentClient({}, telemetry.listener())).toThrowError(
      /instrumentClient: `client` must be a BedrockAgentRuntimeClient \(with a middlewareStack\), got object/,
    );
    const target = new BedrockAgentRuntimeClient({ region: 'us-east-1' });
    expect(() => instrumentClient(target, null as never)).toThrowError(TypeError);
    target.destroy();
  });

  it('a client instrumented twice keeps its first listener', async () => {
    const { client: target } = await agent([returnControl('inv-8', fn('weather', 'get_weather', { city: 'Oslo' }))]);
    const second = { beforeCall: vi.fn() };
    expect(instrumentClient(instrumentClient(target, telemetry.listener()), second)).toBe(target);
    await invoke(target, { inputText: 'Weather?' });
    await invoke(target, {
      sessionState: {
        invocationId: 'inv-8',
        returnControlInvocationResults: [result('weather', 'get_weather', 'rain')],
      },
    });
    expect(second.beforeCall).not.toHaveBeenCalled();
    expect(toolSpans()).toHaveLength(1);
  });
});
