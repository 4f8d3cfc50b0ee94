import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { recordingListener } from '../../helpers/recording-listener.js';
import { connectLine, SDK_LINES, type SdkLine } from './sdks.js';
import { toolCallSpans } from './tool-call-telemetry.js';

/*
 * The MCP adapter does no harm to what the app hands the SDK: the request params a client sends and
 * the request a server's tool receives read as they do without the adapter, and a `_meta` that cannot
 * be read (a revoked Proxy) fails where it would fail without the adapter, never in it.
 */

const telemetry = useTestTelemetry();

/** Request params as a class: `name` and `arguments` are getters on the prototype, over a `#private` field. */
class WeatherRequest {
  readonly #city: string;
  readonly _meta: Record<string, unknown>;
  constructor(city: string, meta: Record<string, unknown>) {
    this.#city = city;
    this._meta = meta;
  }
  get name() {
    return 'weather';
  }
  get arguments() {
    return { city: this.#city };
  }
}

/** A `_meta` with an own key of the app's and one it inherits from defaults. */
const appMeta = () =>
  Object.assign(Object.create({ 'example.com/default': 'inherited' }), { 'example.com/tenant': 'acme' });

interface Received {
  args: unknown;
  meta: unknown;
}

/** A server whose `weather` tool records the arguments and `_meta` McpServer hands it. */
function recordingServer(sdk: SdkLine) {
  const server = sdk.newServer();
  const received: Received[] = [];
  const weather = server.registerTool(
    'weather',
    { inputSchema: { city: z.string() } },
    async (args: { city: string }, extra: { _meta?: unknown; mcpReq?: { _meta?: unknown } }) => {
      received.push({ args, meta: copyOf(extra.mcpReq?._meta ?? extra._meta) });
      return { content: [{ type: 'text', text: `sunny in ${args.city}` }] };
    },
  ) as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return { server, received, weather };
}

/** What the tool reads of its `_meta`: its own keys, or that it cannot read it. */
function copyOf(meta: unknown): unknown {
  try {
    return { ...(meta as object) };
  } catch {
    return 'unreadable';
  }
}

function revokedProxy(): Record<string, unknown> {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const failureOf = (pending: () => Promise<unknown>) =>
  pending().then(
    () => undefined,
    (error: Error) => ({ name: error.name, message: error.message }),
  );

describe.each(SDK_LINES)('the MCP adapter observes in place, SDK $name', (sdk) => {
  it('params of a class (prototype getters, a #private field) and a _meta with inherited keys reach the server as without the adapter, with the trace context added', async () => {
    const plain = recordingServer(sdk);
    await (await connectLine(sdk, plain.server)).client.callTool(new WeatherRequest('Oslo', appMeta()) as never);

    const observed = recordingServer(sdk);
    instrumentServer(observed.server as never, telemetry.listener());
    const { client, sent } = await connectLine(sdk, observed.server);
    instrumentClient(client as never, telemetry.listener());
    const params = new WeatherRequest('Oslo', appMeta());
    const result = await client.callTool(params as never);

    expect(result.content).toEqual([{ type: 'text', text: 'sunny in Oslo' }]);
    expect(plain.received).toEqual([{ args: { city: 'Oslo' }, meta: { 'example.com/tenant': 'acme' } }]);
    const [serverSpan, clientSpan] = toolCallSpans(telemetry);
    const { traceId, spanId } = clientSpan?.spanContext() ?? {};
    const traceparent = `00-${traceId}-${spanId}-01`;
    expect(observed.received).toEqual([
      { args: { city: 'Oslo' }, meta: { 'example.com/tenant': 'acme', traceparent } },
    ]);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(spanId);
    // what a JSON transport would send: the app's own keys and the trace context
    expect(JSON.parse(JSON.stringify(sent[0]?.meta))).toEqual({ 'example.com/tenant': 'acme', traceparent });
    // the app's objects are untouched
    expect(Object.keys(params._meta)).toEqual(['example.com/tenant']);
    expect(Object.getPrototypeOf(params._meta)).toEqual({ 'example.com/default': 'inherited' });
  });

  it('a client request whose _meta is a revoked Proxy fails with the SDK’s own error, as without the adapter, and the listener sees it', async () => {
    const plain = recordingServer(sdk);
    const plainClient = (await connectLine(sdk, plain.server)).client;
    const expected = await failureOf(() =>
      plainClient.callTool({ name: 'weather', arguments: { city: 'Oslo' }, _meta: revokedProxy() }),
    );

    const observed = recordingServer(sdk);
    const { client } = await connectLine(sdk, observed.server);
    const listener = recordingListener();
    instrumentClient(client as never, listener);
    const failure = await telemetry.withParent(() =>
      failureOf(() => client.callTool({ name: 'weather', arguments: { city: 'Oslo' }, _meta: revokedProxy() })),
    );

    expect(expected).toMatchObject({ name: 'TypeError', message: expect.stringContaining('revoked') });
    expect(failure.result).toEqual(expected);
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
  });

  it('client params that are a revoked Proxy: callTool rejects as without the adapter, it does not throw', async () => {
    const plain = recordingServer(sdk);
    const plainClient = (await connectLine(sdk, plain.server)).client;
    const expected = await failureOf(() => plainClient.callTool(revokedProxy() as never));

    const { client } = await connectLine(sdk, recordingServer(sdk).server);
    instrumentClient(client as never, recordingListener());
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = client.callTool(revokedProxy() as never);
    }).not.toThrow();

    expect(expected).toMatchObject({ name: 'TypeError' });
    expect(await failureOf(() => pending as Promise<unknown>)).toEqual(expected);
  });

  /*
   * No peer can send a Proxy (the request arrives as JSON), and the SDK's client rejects a revoked
   * `_meta` before sending it (the test above); a server-side request that cannot be read is only an
   * app (or another wrapper) calling the tool's function the way McpServer does, so the test does that.
   */
  it('a server tool whose request _meta is a revoked Proxy, or whose request getters throw, runs and is observed', async () => {
    const { server, received, weather } = recordingServer(sdk);
    const listener = recordingListener();
    instrumentServer(server as never, listener);
    const signal = new AbortController().signal;
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('hostile');
        },
      },
    );
    // what McpServer passes: 1.x `handler(args, extra)`, 2.x `executor(args, ctx)`
    const call = async (request: Record<string, unknown>) =>
      sdk.name === '1.x'
        ? weather.handler?.({ city: 'Oslo' }, { ...request, signal })
        : weather.executor?.({ city: 'Oslo' }, { mcpReq: { ...request, signal } });

    const byRevokedMeta = await call({ requestId: 1, id: 1, _meta: revokedProxy() }).catch((error) => error);
    const byHostileMeta = await call({ requestId: 2, id: 2, _meta: hostile }).catch((error) => error);

    expect([byRevokedMeta, byHostileMeta]).toEqual([
      { content: [{ type: 'text', text: 'sunny in Oslo' }] },
      { content: [{ type: 'text', text: 'sunny in Oslo' }] },
    ]);
    expect(received.map((request) => request.args)).toEqual([{ city: 'Oslo' }, { city: 'Oslo' }]);
    expect(listener.kinds()).toEqual([
      'beforeCall',
      'afterCall',
      'afterCompletion',
      'beforeCall',
      'afterCall',
      'afterCompletion',
    ]);
  });
});
