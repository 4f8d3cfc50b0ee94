import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_TOOL_CALL_ERROR_OUTCOME, METRIC_TOOL_CALL_ERRORS } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const throwingMessage = Object.defineProperty(new Error('hidden'), 'message', {
  get() {
    throw new Error('message getter bug');
  },
});
const circularCause = new Error('outer');
const inner = new Error('inner', { cause: circularCause });
circularCause.cause = inner;
const hostileProxy = new Proxy(
  {},
  {
    get() {
      throw new Error('get trap');
    },
    getPrototypeOf() {
      throw new Error('getPrototypeOf trap');
    },
    has() {
      throw new Error('has trap');
    },
    ownKeys() {
      throw new Error('ownKeys trap');
    },
  },
);
const aborted = new AbortController();
aborted.abort();

/** [case, thrown value, expected error.type] */
const thrownValues: [string, unknown, string][] = [
  ['undefined', undefined, ERROR_TYPE_VALUE_OTHER],
  ['null', null, ERROR_TYPE_VALUE_OTHER],
  ['a string', 'plain failure', ERROR_TYPE_VALUE_OTHER],
  ['a number', 404, ERROR_TYPE_VALUE_OTHER],
  ['a BigInt', 10n ** 30n, ERROR_TYPE_VALUE_OTHER],
  ['a symbol', Symbol('failure'), ERROR_TYPE_VALUE_OTHER],
  ['an object without message', { status: 'bad' }, ERROR_TYPE_VALUE_OTHER],
  ['an object with a numeric code', { code: 503 }, '503'],
  ['an Error whose message getter throws', throwingMessage, 'Error'],
  ['an Error with a circular cause', circularCause, 'Error'],
  ['a frozen Error', Object.freeze(new TypeError('frozen')), 'TypeError'],
  ['a Proxy whose every trap throws', hostileProxy, ERROR_TYPE_VALUE_OTHER],
  ['an AbortSignal reason (a DOMException with legacy code 20)', aborted.signal.reason, 'AbortError'],
  ['a TimeoutError DOMException', new DOMException('slow', 'TimeoutError'), 'TimeoutError'],
];

const listener = (errorPolicy: 'report' | 'rethrow') => telemetry.listener({ errorPolicy: () => errorPolicy }); // a function also decides for aborted calls

describe('anything can be thrown', () => {
  it.each(thrownValues)(
    '%s: rethrown as the same value, recorded with error.type',
    async (_name, thrown, errorType) => {
      const sync = functionToolCallback({ name: 'sync' }, () => {
        throw thrown;
      });
      const async = functionToolCallback({ name: 'async' }, async () => {
        throw thrown;
      });
      let caught: unknown = 'nothing';
      try {
        ToolCallListeners.wrap(sync, listener('rethrow')).call(undefined);
      } catch (error) {
        caught = error;
      }
      expect(Object.is(caught, thrown)).toBe(true);
      await ToolCallListeners.wrap(async, listener('rethrow'))
        .call(undefined)
        .then(
          () => expect.unreachable(),
          (error: unknown) => expect(Object.is(error, thrown)).toBe(true),
        );
      for (const span of telemetry.spans()) {
        expect(span.status.code).toBe(SpanStatusCode.ERROR);
        expect(typeof span.status.message).toBe('string');
        expect(span.attributes[ATTR_ERROR_TYPE]).toBe(errorType);
        expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
      }
      expect(telemetry.spans()).toHaveLength(2);
      const counted = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
      expect(counted.map((point) => [point.attributes[ATTR_ERROR_TYPE], point.value])).toEqual([
        [errorType, 1],
        [errorType, 1],
      ]);
    },
  );

  it.each(thrownValues)('%s: reported as a bounded, stack-free text', async (_name, thrown, errorType) => {
    const tool = functionToolCallback({ name: 'tool' }, async () => {
      throw thrown;
    });
    const text = await ToolCallListeners.wrap(tool, listener('report')).call(undefined);
    expect(typeof text).toBe('string');
    expect(text).toMatch(/^Tool 'tool' failed: /);
    expect(text).not.toMatch(/\n\s*at /);
    expect((text as string).length).toBeLessThanOrEqual(1100);
    expect(telemetry.span('execute_tool tool').attributes[ATTR_ERROR_TYPE]).toBe(errorType);
    expect(telemetry.span('execute_tool tool').attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });
});
