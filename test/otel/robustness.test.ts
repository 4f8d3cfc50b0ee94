import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { afterEach, describe, expect, it } from 'vitest';
import { useDiagLog } from '../helpers/diag-log.js';
import { createTestTelemetry } from '../helpers/otel-sdk.js';

let telemetry = createTestTelemetry();
const logged = useDiagLog();
afterEach(async () => {
  await telemetry.shutdown();
  telemetry = createTestTelemetry();
});

const add = functionToolCallback({ name: 'add' }, async ({ a, b }: { a: number; b: number }) => a + b);
const fails = functionToolCallback({ name: 'fails' }, async () => {
  throw new Error('tool failed');
});
const throwing = () => {
  throw new Error('hook bug');
};

describe('the listener never throws', () => {
  it('still returns a valid, ended span when every hook throws', async () => {
    const listener = new OpenTelemetryToolCallListener({
      tracerProvider: telemetry.tracerProvider,
      meterProvider: telemetry.meterProvider,
      onSpanStart: throwing,
      onSpanEnd: throwing,
      redact: throwing,
      formatError: throwing,
      errorPolicy: 'report',
      captureContent: true,
    });
    await expect(ToolCallListeners.wrap(add, listener).call({ a: 1, b: 2 })).resolves.toBe(3);
    await expect(ToolCallListeners.wrap(fails, listener).call(undefined)).resolves.toBe(
      "Tool 'fails' failed: tool failed",
    );
    expect(telemetry.spans().map((span) => span.name)).toEqual(['execute_tool add', 'execute_tool fails']);
    expect(logged.some((line) => line.includes('onSpanStart hook threw'))).toBe(true);
    expect(logged.some((line) => line.includes('onSpanEnd hook threw'))).toBe(true);
    expect(logged.some((line) => line.includes('formatError'))).toBe(true);
  });

  it('lets the tool run and return unchanged when the tracer itself throws', async () => {
    const brokenTracerProvider = {
      getTracer: () => ({
        startSpan: () => {
          throw new Error('tracer broken');
        },
        startActiveSpan: () => {
          throw new Error('tracer broken');
        },
      }),
    } as unknown as TracerProvider;
    const listener = new OpenTelemetryToolCallListener({ tracerProvider: brokenTracerProvider, errorPolicy: 'report' });
    await expect(ToolCallListeners.wrap(add, listener).call({ a: 2, b: 3 })).resolves.toBe(5);
    await expect(ToolCallListeners.wrap(fails, listener).call(undefined)).resolves.toBe(
      "Tool 'fails' failed: tool failed",
    );
    expect(logged.some((line) => line.includes("could not start the span of 'add'"))).toBe(true);
  });

  it('ends the span even when the meter throws', async () => {
    const brokenMeterProvider = {
      getMeter: () => {
        throw new Error('meter broken');
      },
    } as unknown as MeterProvider;
    const listener = new OpenTelemetryToolCallListener({
      tracerProvider: telemetry.tracerProvider,
      meterProvider: brokenMeterProvider,
    });
    await expect(ToolCallListeners.wrap(add, listener).call({ a: 1, b: 1 })).resolves.toBe(2);
    expect(telemetry.spans()).toHaveLength(1);
    expect(logged.some((line) => line.includes("could not end the span of 'add'"))).toBe(true);
  });

  it('records an error whose message getter throws', async () => {
    const hostile = new Proxy(new Error('x'), {
      get(target, key) {
        if (key === 'message' || key === 'code') throw new Error('getter bug');
        return Reflect.get(target, key);
      },
    });
    const tool = functionToolCallback({ name: 'hostile' }, () => {
      throw hostile;
    });
    const listener = new OpenTelemetryToolCallListener({
      tracerProvider: telemetry.tracerProvider,
      meterProvider: telemetry.meterProvider,
      errorPolicy: 'report',
    });
    expect(ToolCallListeners.wrap(tool, listener).call(undefined)).toMatch(/^Tool 'hostile' failed: /);
    expect(telemetry.spans()).toHaveLength(1);
  });
});

describe('options', () => {
  it.each([
    [{ errorPolicy: 'ignore' }, '`errorPolicy` must be'],
    [{ toolErrorPolicies: { search: 'sometimes' } }, '`toolErrorPolicies["search"]` must be'],
    [{ toolErrorPolicies: null }, '`toolErrorPolicies` must be'],
    [{ maxContentLength: 0 }, '`maxContentLength` must be a positive integer'],
    [{ maxContentLength: 1.5 }, '`maxContentLength` must be a positive integer'],
    [{ captureContent: 'yes' }, '`captureContent` must be a boolean'],
    [{ recordException: 1 }, '`recordException` must be a boolean'],
    [{ exceptionSignal: 'log' }, "`exceptionSignal` must be 'span-events', 'logs' or 'logs/dup'"],
    [{ agentName: 42 }, '`agentName` must be a string'],
    [{ formatError: 'text' }, '`formatError` must be a function'],
    [{ redact: {} }, '`redact` must be a function'],
    [{ onSpanStart: true }, '`onSpanStart` must be a function'],
    [{ onSpanEnd: 1 }, '`onSpanEnd` must be a function'],
    [{ tracerProvider: {} }, '`tracerProvider` must be an object with a getTracer() method'],
    [{ meterProvider: null }, '`meterProvider` must be an object with a getMeter() method'],
  ])('throws a TypeError naming the invalid option (%o)', (options, message) => {
    expect(() => new OpenTelemetryToolCallListener(options as never)).toThrow(TypeError);
    expect(() => new OpenTelemetryToolCallListener(options as never)).toThrow(message);
  });

  it('does not keep a reference to the options object it was given', async () => {
    const options: { errorPolicy: 'report' | 'rethrow'; tracerProvider: TracerProvider } = {
      errorPolicy: 'report',
      tracerProvider: telemetry.tracerProvider,
    };
    const listener = new OpenTelemetryToolCallListener(options);
    options.errorPolicy = 'rethrow';
    await expect(ToolCallListeners.wrap(fails, listener).call(undefined)).resolves.toContain('failed');
  });
});
