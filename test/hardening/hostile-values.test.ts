import { DiagLogLevel, diag } from '@opentelemetry/api';
import {
  functionToolCallback,
  OpenTelemetryToolCallListener,
  ToolCallListeners,
  type ToolContext,
} from 'otel-tool-calls';
import {
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
} from 'otel-tool-calls/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
beforeAll(() => diag.setLogger({ error() {}, warn() {}, info() {}, debug() {}, verbose() {} }, DiagLogLevel.ERROR));
afterAll(() => diag.disable());

const MAX = 256;
const throwing = () => {
  throw new Error('getter bug');
};
const circular: Record<string, unknown> = { name: 'loop' };
circular.self = circular;
const throwingProxy = new Proxy({}, { get: throwing, ownKeys: throwing, getPrototypeOf: throwing, has: throwing });
const hugeString = 'x'.repeat(50 * 1024 * 1024);

/** Values an agent could hand a tool, or a tool could return; each case names what makes it hostile. */
const hostileValues: [string, unknown][] = [
  ['circular', circular],
  ['a 50 MB string', hugeString],
  ['a 50 MB object (one huge property)', { blob: hugeString, after: 1 }],
  ['an array of a million numbers', Array.from({ length: 1_000_000 }, (_, index) => index)],
  ['a BigInt', 2n ** 100n],
  ['an object holding a BigInt', { id: 12345678901234567890n }],
  ['symbol-keyed', { [Symbol('secret')]: 'hidden', visible: 1 }],
  ['a symbol', Symbol('tool-result')],
  ['frozen', Object.freeze({ a: Object.freeze([1, 2]) })],
  ['a Proxy whose every trap throws', throwingProxy],
  ['a throwing getter', Object.defineProperty({ ok: 1 }, 'bad', { get: throwing, enumerable: true })],
  ['a throwing toJSON', { toJSON: throwing }],
  ['a function', () => 'fn'],
  ['undefined', undefined],
  ['NaN and Infinity', [Number.NaN, Number.POSITIVE_INFINITY]],
  ['a 10,000-deep nesting', Array.from({ length: 10_000 }).reduce((inner) => ({ inner }), {})],
];

describe.each([true, false])('hostile inputs and results (captureContent %s)', (captureContent) => {
  it.each(hostileValues)('%s: returned unchanged and recorded safely', (_name, value) => {
    const listener = telemetry.listener({ captureContent, maxContentLength: MAX });
    const echo = functionToolCallback({ name: 'echo' }, (input: unknown) => input);
    expect(Object.is(ToolCallListeners.wrap(echo, listener).call(value), value)).toBe(true);
    const span = telemetry.span('execute_tool echo');
    for (const attribute of [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_GEN_AI_TOOL_CALL_RESULT]) {
      const captured = span.attributes[attribute];
      if (!captureContent) expect(captured).toBeUndefined();
      else if (value !== undefined) {
        expect(typeof captured).toBe('string');
        expect((captured as string).length).toBeLessThanOrEqual(MAX);
      }
    }
  });
});

describe('a hostile toolContext', () => {
  const tool = functionToolCallback({ name: 'ctx' }, (input: number) => input + 1);
  const listener = () =>
    new OpenTelemetryToolCallListener({
      tracerProvider: telemetry.tracerProvider,
      meterProvider: telemetry.meterProvider,
    });

  it('whose getters throw: the tool runs as it would unwrapped, and the call is still recorded', () => {
    const toolContext = Object.defineProperty({}, 'toolCallId', { get: throwing, enumerable: true }) as ToolContext;
    expect(ToolCallListeners.wrap(tool, listener()).call(1, toolContext)).toBe(2);
    expect(telemetry.spans()).toHaveLength(1);
  });

  it('a Proxy whose every trap throws: the tool still runs and the call is recorded', () => {
    expect(ToolCallListeners.wrap(tool, listener()).call(1, throwingProxy as ToolContext)).toBe(2);
    expect(telemetry.spans()).toHaveLength(1);
  });

  it('with ill-typed fields (a numeric call id, a fake signal, non-primitive attributes): they are left out', () => {
    const toolContext = {
      toolCallId: 42,
      signal: { aborted: true },
      framework: {},
      attributes: { nested: { deep: 1 }, big: 1n, list: [1, 2], fine: 'yes' },
    } as unknown as ToolContext;
    expect(ToolCallListeners.wrap(tool, listener()).call(1, toolContext)).toBe(2);
    const span = telemetry.span('execute_tool ctx');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBeUndefined();
    expect(span.attributes.fine).toBe('yes');
    expect(span.attributes.list).toEqual([1, 2]);
    expect(span.attributes.nested).toBeUndefined();
    expect(span.attributes.big).toBeUndefined();
  });

  it('with attributes that are a throwing Proxy: the tool runs, the failure is logged, not thrown', () => {
    const toolContext = { toolCallId: 'call_1', attributes: throwingProxy } as unknown as ToolContext;
    expect(ToolCallListeners.wrap(tool, listener()).call(1, toolContext)).toBe(2);
  });
});
