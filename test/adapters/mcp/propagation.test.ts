import { types } from 'node:util';
import { context, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import {
  extractTraceContext,
  MAX_CARRIER_CHARACTERS,
  MAX_CARRIER_KEYS,
  messageWithTraceContext,
  withTraceContext,
} from '../../../src/adapters/mcp/propagation.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';
import { PROPAGATOR_KEYS, PROPAGATOR_NAMES, propagatorNamed } from './propagators.js';

const telemetry = useTestTelemetry();

const hostile = new Proxy(
  {},
  {
    get: () => {
      throw new Error('hostile');
    },
    getOwnPropertyDescriptor: () => {
      throw new Error('hostile');
    },
    ownKeys: () => {
      throw new Error('hostile');
    },
  },
);

const revoked = Proxy.revocable({}, {});
revoked.revoke();

describe('MCP trace context propagation', () => {
  it.each([
    ['null', null],
    ['a string', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['an array', ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']],
    ['a Proxy whose traps throw', hostile],
    ['a revoked Proxy', revoked.proxy],
  ])('a _meta that is %s is ignored: the ambient context stays the parent, nothing throws', (_name, meta) => {
    const { parent, links } = extractTraceContext(meta);
    expect(parent).toBe(context.active());
    expect(links).toEqual([]);
  });

  it('a _meta that is not an object is sent as it is, without trace context', async () => {
    await telemetry.withParent(() => {
      const params = { name: 'weather', _meta: 'not an object' };
      expect(withTraceContext(params)).toBe(params);
      return undefined;
    });
  });

  it('params and a _meta that are object literals are sent as plain copies with the context added, not Proxies; the app keeps its own objects unchanged', async () => {
    await telemetry.withParent(() => {
      const meta = { 'example.com/tenant': 'acme' };
      const params = { name: 'weather', arguments: { city: 'Oslo' }, _meta: meta };
      const sent = withTraceContext(params) as typeof params & { _meta: Record<string, unknown> };
      expect(types.isProxy(sent)).toBe(false);
      expect(types.isProxy(sent._meta)).toBe(false);
      expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
      expect(sent).toEqual({
        name: 'weather',
        arguments: params.arguments,
        _meta: {
          'example.com/tenant': 'acme',
          traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
        },
      });
      expect(sent.arguments).toBe(params.arguments);
      expect(params).toEqual({ name: 'weather', arguments: { city: 'Oslo' }, _meta: { 'example.com/tenant': 'acme' } });
      expect(params._meta).toBe(meta);
      return undefined;
    });
  });

  it('with no active span there is nothing to inject: the params are sent unchanged', () => {
    expect(trace.getActiveSpan()).toBeUndefined();
    const params = { name: 'weather' };
    expect(withTraceContext(params)).toBe(params);
  });
});

describe('MCP trace context through the registered propagator', () => {
  afterEach(() => {
    propagation.disable();
    propagation.setGlobalPropagator(propagatorNamed('w3c'));
  });

  const register = (name: (typeof PROPAGATOR_NAMES)[number]) => {
    propagation.disable();
    propagation.setGlobalPropagator(propagatorNamed(name));
  };

  it.each(PROPAGATOR_NAMES)(
    'with the %s propagator registered, what the client injects the server extracts: the same trace and parent span',
    async (name) => {
      register(name);
      const { parent, result } = await telemetry.withParent(() => {
        const sent = messageWithTraceContext({ method: 'tools/call', params: { name: 'weather' } });
        return (sent.params as { _meta?: Record<string, unknown> })._meta;
      });
      expect(Object.keys(result ?? {})).toEqual(expect.arrayContaining([...PROPAGATOR_KEYS[name]]));

      const extracted = trace.getSpanContext(extractTraceContext(JSON.parse(JSON.stringify(result))).parent);
      expect([extracted?.traceId, extracted?.spanId]).toEqual([
        parent.spanContext().traceId,
        parent.spanContext().spanId,
      ]);
    },
  );

  it('every request and notification gets the context, one without params too; with none active, the message is sent as it is', async () => {
    const { parent, result } = await telemetry.withParent(() => [
      messageWithTraceContext({ method: 'ping' }),
      messageWithTraceContext({ method: 'notifications/initialized', params: {} }),
    ]);
    const traceparent = `00-${parent.spanContext().traceId}-${parent.spanContext().spanId}-01`;
    for (const message of result) {
      expect(JSON.parse(JSON.stringify(message)).params._meta.traceparent).toBe(traceparent);
    }
    const plain = { method: 'ping' };
    expect(messageWithTraceContext(plain)).toBe(plain);
  });

  it(`the propagator's fields are read before other keys, and at most ${MAX_CARRIER_KEYS} keys and ${MAX_CARRIER_CHARACTERS} characters of _meta reach it`, async () => {
    register('custom');
    const { parent, result } = await telemetry.withParent(() => {
      const sent = messageWithTraceContext({ method: 'tools/call', params: { name: 'weather' } });
      return (sent.params as unknown as { _meta: Record<string, string> })._meta;
    });
    // the field last, after as many other keys as the bound allows and more
    const crowded: Record<string, string> = {};
    for (let index = 0; index < 1000; index++) crowded[`example.com/k${index}`] = 'x'.repeat(100);
    Object.assign(crowded, result);
    const read: string[] = [];
    propagation.disable();
    propagation.setGlobalPropagator({
      inject: () => {},
      fields: () => propagatorNamed('custom').fields(),
      extract: (ctx, carrier, getter) => {
        const keys = getter.keys(carrier);
        read.push(...keys);
        return propagatorNamed('custom').extract(ctx, carrier, getter);
      },
    });
    const extracted = trace.getSpanContext(extractTraceContext(crowded).parent);
    expect(extracted?.spanId).toBe(parent.spanContext().spanId);
    expect(read).toHaveLength(MAX_CARRIER_KEYS);
    expect(read[0]).toBe('example-trace');

    read.length = 0;
    const big: Record<string, string> = {};
    for (let index = 0; index < 10; index++) big[`example.com/big${index}`] = 'x'.repeat(4000);
    extractTraceContext(big);
    expect(read.length).toBeLessThanOrEqual(MAX_CARRIER_CHARACTERS / 4000);
  });
});
