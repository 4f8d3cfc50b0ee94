// A Bedrock agent returning control to the app (`@aws-sdk/client-bedrock-agent-runtime`): the app runs
// the functions the agent hands it and sends the results back, each call traced by the OpenTelemetry
// listener. The agent is a fake Bedrock agent runtime on 127.0.0.1 (no network, no AWS account): it
// asks for the weather in Oslo and in Atlantis (which the app answers as a FAILURE), then answers.
// Run: npm run example:bedrock-agent-runtime
import {
  BedrockAgentRuntimeClient,
  type InvocationResultMember,
  InvokeAgentCommand,
  type InvokeAgentCommandOutput,
} from '@aws-sdk/client-bedrock-agent-runtime';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentClient } from 'otel-tool-calls/bedrock-agent-runtime';
import { returnedResults, startFakeBedrockAgent } from '../../test/helpers/fake-bedrock-agent.mjs';
import { spanAttributes } from '../span-attributes.js';

const weather = (city: string) => ({
  functionInvocationInput: {
    actionGroup: 'weather',
    function: 'get_weather',
    parameters: [{ name: 'city', type: 'string', value: city }],
  },
});
const api = await startFakeBedrockAgent((request) =>
  returnedResults(request).results.length > 0
    ? [{ chunk: { text: 'Rain in Oslo; Atlantis is not on the map.' } }]
    : [{ returnControl: { invocationId: 'inv-1', invocationInputs: [weather('Oslo'), weather('Atlantis')] } }],
);

/** The app's own function for the action group. */
function getWeather(city: string): InvocationResultMember {
  const known = city !== 'Atlantis';
  return {
    functionResult: {
      actionGroup: 'weather',
      function: 'get_weather',
      responseBody: { TEXT: { body: known ? `rain in ${city}` : `no weather station in ${city}` } },
      ...(known ? {} : { responseState: 'FAILURE' as const }),
    },
  };
}

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const client = instrumentClient(
  new BedrockAgentRuntimeClient({
    region: 'us-east-1',
    endpoint: api.endpoint,
    credentials: { accessKeyId: 'offline', secretAccessKey: 'offline' },
  }),
  new OpenTelemetryToolCallListener({ tracerProvider }),
);

const session = { agentId: 'AGENT', agentAliasId: 'ALIAS', sessionId: 'session-1' };
let response: InvokeAgentCommandOutput = await client.send(
  new InvokeAgentCommand({ ...session, inputText: 'Weather in Oslo and Atlantis?' }),
);
for (;;) {
  let said = '';
  const results: InvocationResultMember[] = [];
  let invocationId: string | undefined;
  for await (const event of response.completion ?? []) {
    if (event.chunk?.bytes) said += new TextDecoder().decode(event.chunk.bytes);
    if (event.returnControl) {
      invocationId = event.returnControl.invocationId;
      for (const input of event.returnControl.invocationInputs ?? []) {
        results.push(getWeather(input.functionInvocationInput?.parameters?.[0]?.value ?? ''));
      }
    }
  }
  if (results.length === 0) {
    console.log(`agent: ${said}`);
    break;
  }
  response = await client.send(
    new InvokeAgentCommand({ ...session, sessionState: { invocationId, returnControlInvocationResults: results } }),
  );
}
client.destroy();
await api.close();

const shown = ['gen_ai.tool.call.id', 'gen_ai.conversation.id', 'error.type'];
for (const span of spans.getFinishedSpans()) console.log(`span: ${span.name}${spanAttributes(span, shown)}`);
