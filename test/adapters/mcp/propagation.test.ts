import { context, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { extractTraceContext, withTraceContext } from '../../../src/adapters/mcp/propagation.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

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

  it('with no active span there is nothing to inject: the params are sent unchanged', () => {
    expect(trace.getActiveSpan()).toBeUndefined();
    const params = { name: 'weather' };
    expect(withTraceContext(params)).toBe(params);
  });
});
