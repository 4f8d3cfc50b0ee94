import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { describe, expect, it } from 'vitest';

/*
 * Every public function refuses a wrong argument at once, with a TypeError that names it; nothing
 * wrong is accepted silently to fail later inside a tool call.
 */

const tool = functionToolCallback({ name: 'ok' }, () => 1);
const loose = <F>(fn: F) => fn as unknown as (...args: unknown[]) => unknown;

const cases: [string, () => unknown, RegExp][] = [
  // OpenTelemetryToolCallListener (each option; more in test/otel/robustness.test.ts)
  [
    'listener options null',
    () => new (OpenTelemetryToolCallListener as never as new (o: unknown) => unknown)(null),
    /`options` must be an object/,
  ],
  [
    'listener options a string',
    () => new (OpenTelemetryToolCallListener as never as new (o: unknown) => unknown)('report'),
    /`options` must be an object/,
  ],
  [
    'errorPolicy null',
    () => new OpenTelemetryToolCallListener({ errorPolicy: null as never }),
    /`errorPolicy` must be/,
  ],
  [
    'errorPolicy REPORT',
    () => new OpenTelemetryToolCallListener({ errorPolicy: 'REPORT' as never }),
    /`errorPolicy` must be/,
  ],
  [
    'maxContentLength Infinity',
    () => new OpenTelemetryToolCallListener({ maxContentLength: Number.POSITIVE_INFINITY }),
    /`maxContentLength` must be a positive integer/,
  ],
  [
    'maxContentLength NaN',
    () => new OpenTelemetryToolCallListener({ maxContentLength: Number.NaN }),
    /`maxContentLength` must be a positive integer/,
  ],
  [
    'maxContentLength -1',
    () => new OpenTelemetryToolCallListener({ maxContentLength: -1 }),
    /`maxContentLength` must be a positive integer/,
  ],
  [
    'maxContentLength as a string',
    () => new OpenTelemetryToolCallListener({ maxContentLength: '4096' as never }),
    /`maxContentLength` must be a positive integer/,
  ],
  [
    'toolErrorPolicies a string',
    () => new OpenTelemetryToolCallListener({ toolErrorPolicies: 'report' as never }),
    /`toolErrorPolicies` must be an object/,
  ],
  [
    'a tool policy null',
    () => new OpenTelemetryToolCallListener({ toolErrorPolicies: { a: null as never } }),
    /`toolErrorPolicies\["a"\]` must be/,
  ],
  [
    'captureContent "true"',
    () => new OpenTelemetryToolCallListener({ captureContent: 'true' as never }),
    /`captureContent` must be a boolean/,
  ],
  [
    'agentName null',
    () => new OpenTelemetryToolCallListener({ agentName: null as never }),
    /`agentName` must be a string/,
  ],
  ['redact null', () => new OpenTelemetryToolCallListener({ redact: null as never }), /`redact` must be a function/],
  [
    'tracerProvider a string',
    () => new OpenTelemetryToolCallListener({ tracerProvider: 'global' as never }),
    /`tracerProvider` must be an object with a getTracer\(\) method/,
  ],
  // ToolCallListeners
  [
    'wrap(null, listener)',
    () => loose(ToolCallListeners.wrap)(null, {}),
    /ToolCallListeners\.wrap: `callback` must be a ToolCallback/,
  ],
  ['wrap(function, listener)', () => loose(ToolCallListeners.wrap)(() => 1, {}), /`callback` must be a ToolCallback/],
  [
    'wrap(callback, null)',
    () => loose(ToolCallListeners.wrap)(tool, null),
    /`listener` must be a ToolCallListener object, got null/,
  ],
  [
    'wrap(callback, listener with beforeCall: 1)',
    () => loose(ToolCallListeners.wrap)(tool, { beforeCall: 1 }),
    /`listener\.beforeCall` must be a function/,
  ],
  [
    'wrap(callback, listener with runInContext: {})',
    () => loose(ToolCallListeners.wrap)(tool, { runInContext: {} }),
    /`listener\.runInContext` must be a function/,
  ],
  [
    'wrapAll(non-array)',
    () => loose(ToolCallListeners.wrapAll)({ 0: tool, length: 1 }, {}),
    /`callbacks` must be an array/,
  ],
  [
    'wrapAll with a bad element',
    () => loose(ToolCallListeners.wrapAll)([tool, {}], {}),
    /`callbacks\[1\]` must be a ToolCallback/,
  ],
  [
    'wrapAll(callbacks, undefined)',
    () => loose(ToolCallListeners.wrapAll)([tool], undefined),
    /`listener` must be a ToolCallListener/,
  ],
  [
    'composite with undefined',
    () => loose(ToolCallListeners.composite)({}, undefined),
    /listeners\[1\].*`listener` must be/,
  ],
  [
    'composite with a bad method',
    () => loose(ToolCallListeners.composite)({ onError: 'report' }),
    /`listener\.onError` must be a function/,
  ],
  // functionToolCallback
  [
    'functionToolCallback(null, fn)',
    () => loose(functionToolCallback)(null, () => 1),
    /`definition` must be an object/,
  ],
  [
    'functionToolCallback({ name: "" }, fn)',
    () => loose(functionToolCallback)({ name: '' }, () => 1),
    /`definition\.name` must be a non-empty string/,
  ],
  [
    'functionToolCallback({ name: 1 }, fn)',
    () => loose(functionToolCallback)({ name: 1 }, () => 1),
    /`definition\.name` must be a non-empty string/,
  ],
  [
    'functionToolCallback(def, "fn")',
    () => loose(functionToolCallback)({ name: 'x' }, 'fn'),
    /`fn` must be a function/,
  ],
  [
    'functionToolCallback(def, fn, null)',
    () => loose(functionToolCallback)({ name: 'x' }, () => 1, null),
    /`metadata` must be an object/,
  ],
  // startToolCallTelemetry (no SDK is started when an option is wrong)
  ['startToolCallTelemetry()', () => loose(startToolCallTelemetry)(), /`options` must be an object/],
  ['startToolCallTelemetry({})', () => loose(startToolCallTelemetry)({}), /`serviceName` must be a non-empty string/],
  [
    'serviceName a number',
    () => loose(startToolCallTelemetry)({ serviceName: 7 }),
    /`serviceName` must be a non-empty string/,
  ],
  [
    'traces an object without export',
    () => loose(startToolCallTelemetry)({ serviceName: 's', traces: {} }),
    /`traces` must be 'otlp', 'none' or a SpanExporter/,
  ],
  [
    'metrics "prom"',
    () => loose(startToolCallTelemetry)({ serviceName: 's', metrics: 'prom' }),
    /`metrics` must be 'prometheus', 'otlp' or 'none'/,
  ],
  [
    'prometheusPort as a string',
    () => loose(startToolCallTelemetry)({ serviceName: 's', prometheusPort: '9464' }),
    /`prometheusPort` must be an integer/,
  ],
  [
    'prometheusPort -1',
    () => loose(startToolCallTelemetry)({ serviceName: 's', prometheusPort: -1 }),
    /`prometheusPort` must be an integer/,
  ],
];

describe('invalid arguments and options', () => {
  it.each(cases)('%s: a TypeError naming it', (_name, make, message) => {
    let thrown: unknown;
    try {
      make();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as TypeError).message).toMatch(message);
  });
});
