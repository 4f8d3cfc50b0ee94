import { completable as completable1 } from '@modelcontextprotocol/sdk/server/completable.js';
import { ResourceTemplate as ResourceTemplate1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable as completable2, ResourceTemplate as ResourceTemplate2 } from '@modelcontextprotocol/server';
import { SpanKind } from '@opentelemetry/api';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import {
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_RESOURCE_URI,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { connectLine, SDK_LINES, type SdkLine, type TestClient, type TestServer } from './sdks.js';

/*
 * completion/complete, named as the conventions ask: `{mcp.method.name} {target}`, the target being
 * `gen_ai.prompt.name` when the completion is of a prompt's argument (`ref/prompt`); a resource
 * template's argument (`ref/resource`) has no low-cardinality target, so the span is `completion/complete`.
 */

const telemetry = useTestTelemetry();

interface CompletingClient extends TestClient {
  complete(params: object): Promise<{ completion: { values: string[] } }>;
}

/** A prompt and a resource template, each with an argument that completes to Oslo and Bergen. */
function completingServer(sdk: SdkLine): TestServer {
  const cities = (value: string) => ['Oslo', 'Bergen'].filter((city) => city.startsWith(value));
  const mcp = sdk.newServer() as unknown as {
    registerPrompt(name: string, config: object, get: (args: unknown) => unknown): void;
    registerResource(name: string, template: unknown, config: object, read: (uri: URL) => unknown): void;
  };
  const city = sdk.name === '1.x' ? completable1(z.string(), cities) : completable2(z.string(), cities);
  mcp.registerPrompt('forecast', { argsSchema: sdk.name === '1.x' ? { city } : z.object({ city }) }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'forecast?' } }],
  }));
  const Template = sdk.name === '1.x' ? ResourceTemplate1 : ResourceTemplate2;
  const template = new Template('weather://{city}', { list: undefined, complete: { city: cities } });
  mcp.registerResource('weather', template, {}, (uri: URL) => ({ contents: [{ uri: uri.href, text: 'sunny' }] }));
  return mcp as unknown as TestServer;
}

describe.each(SDK_LINES)('MCP completion/complete, SDK $name', (sdk) => {
  it('a completion of a prompt’s argument is completion/complete {prompt} with gen_ai.prompt.name on both sides and in both operation durations; of a resource template’s, completion/complete', async () => {
    const listener = telemetry.listener();
    const server = instrumentServer(completingServer(sdk) as never, listener) as unknown as TestServer;
    const client = instrumentClient(sdk.newClient() as never, listener) as unknown as CompletingClient;
    await connectLine(sdk, server, client);

    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'forecast' },
      argument: { name: 'city', value: 'O' },
    });
    const resource = await client.complete({
      ref: { type: 'ref/resource', uri: 'weather://{city}' },
      argument: { name: 'city', value: 'B' },
    });
    expect([prompt.completion.values, resource.completion.values]).toEqual([['Oslo'], ['Bergen']]);

    const completions = telemetry
      .spans()
      .filter((span) => span.attributes[ATTR_MCP_METHOD_NAME] === 'completion/complete');
    expect(completions.map((span) => [span.name, span.kind]).sort()).toEqual(
      [
        ['completion/complete forecast', SpanKind.CLIENT],
        ['completion/complete forecast', SpanKind.SERVER],
        ['completion/complete', SpanKind.CLIENT],
        ['completion/complete', SpanKind.SERVER],
      ].sort(),
    );
    for (const span of completions) {
      expect(span.attributes[ATTR_GEN_AI_PROMPT_NAME]).toBe(span.name.endsWith('forecast') ? 'forecast' : undefined);
      // the template's URI is neither the target nor an attribute (not a request the conventions list for it)
      expect(span.attributes[ATTR_MCP_RESOURCE_URI]).toBeUndefined();
    }
    for (const metric of [METRIC_MCP_CLIENT_OPERATION_DURATION, METRIC_MCP_SERVER_OPERATION_DURATION]) {
      const points = (await telemetry.histogramPoints(metric)).filter(
        (point) => point.attributes[ATTR_MCP_METHOD_NAME] === 'completion/complete',
      );
      expect(points.map((point) => point.attributes[ATTR_GEN_AI_PROMPT_NAME]).sort()).toEqual(['forecast', undefined]);
    }
  }, 30_000);
});
