import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestTelemetry } from '../helpers/otel-sdk.js';

/** Where @opentelemetry/api 1.x keeps what is registered: the listener's "nothing registered" check. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

// each test starts as a process in which nothing ever registered
beforeEach(() => {
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
  diag.disable();
  delete (globalThis as Record<symbol, unknown>)[API_GLOBAL];
});

afterEach(() => {
  vi.restoreAllMocks();
  trace.disable();
  metrics.disable();
});

const failing = functionToolCallback({ name: 'lookup' }, () => {
  throw new Error('not found');
});

describe('with no SDK registered (a library whose host has no OpenTelemetry)', () => {
  it('still applies the error policy', () => {
    const tool = ToolCallListeners.wrap(failing, new OpenTelemetryToolCallListener({ errorPolicy: 'report' }));
    expect(tool.call(undefined)).toBe("Tool 'lookup' failed: not found");
    const rethrowing = ToolCallListeners.wrap(failing, new OpenTelemetryToolCallListener());
    expect(() => rethrowing.call(undefined)).toThrow('not found');
  });

  it('picks up an SDK registered after the listener was made and used', async () => {
    const listener = new OpenTelemetryToolCallListener();
    const tool = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, () => 'found'),
      listener,
    );
    expect(tool.call(undefined)).toBe('found');

    const telemetry = createTestTelemetry();
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    try {
      expect(tool.call(undefined)).toBe('found');
      expect(telemetry.spans().map((span) => span.name)).toEqual(['execute_tool lookup']);
      const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(points.map((point) => point.value.count)).toEqual([1]);
    } finally {
      await telemetry.shutdown();
    }
  });

  it('with the default policy (rethrow), hands back what the tool returned, untouched', async () => {
    const pending = Promise.resolve('found');
    const tool = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, () => pending),
      new OpenTelemetryToolCallListener(),
    );
    expect(tool.call(undefined)).toBe(pending);
    const rejected = Promise.reject(new Error('not found'));
    const failing = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, () => rejected),
      new OpenTelemetryToolCallListener({ toolErrorPolicies: { other: 'report' } }),
    );
    // a policy that may report (here for another tool) observes the failure: the caller gets its own Promise
    const observed = failing.call(undefined);
    expect(observed).not.toBe(rejected);
    await expect(observed).rejects.toThrow('not found');
  });

  it('with the default policy, reads neither the definition nor the metadata while nothing is registered', async () => {
    const delegate = functionToolCallback({ name: 'lookup' }, () => 'found');
    const tool = ToolCallListeners.wrap(delegate, new OpenTelemetryToolCallListener());
    const definition = vi.spyOn(delegate, 'getToolDefinition');
    const metadata = vi.spyOn(delegate, 'getToolMetadata');
    expect(tool.call(undefined)).toBe('found');
    expect([definition.mock.calls.length, metadata.mock.calls.length]).toEqual([0, 0]);

    const telemetry = createTestTelemetry();
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    try {
      expect(tool.call(undefined)).toBe('found');
      // something to record: the call is described to the listener again
      expect([definition.mock.calls.length, metadata.mock.calls.length]).toEqual([1, 1]);
      expect(telemetry.spans().map((span) => span.name)).toEqual(['execute_tool lookup']);
    } finally {
      await telemetry.shutdown();
    }
  });

  it('skips beforeCall while nothing is registered (a failure still meets onError), and runs every step once an SDK is', async () => {
    const beforeCall = vi.spyOn(OpenTelemetryToolCallListener.prototype, 'beforeCall');
    const afterCompletion = vi.spyOn(OpenTelemetryToolCallListener.prototype, 'afterCompletion');
    const listener = new OpenTelemetryToolCallListener({ errorPolicy: 'report' });
    class TrackedPromise<T> extends Promise<T> {}
    const found = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, () => TrackedPromise.resolve('found')),
      listener,
    );
    const result = found.call(undefined);
    expect(result).toBeInstanceOf(TrackedPromise);
    await expect(result).resolves.toBe('found');
    const failed = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, async () => {
        throw new Error('not found');
      }),
      listener,
    );
    await expect(failed.call(undefined)).resolves.toBe("Tool 'lookup' failed: not found");
    expect(beforeCall).not.toHaveBeenCalled();
    // the failure goes through the decorator's usual rules, with the state beforeCall would have given
    expect(afterCompletion.mock.calls.map(([state]) => state)).toEqual([undefined]);

    const telemetry = createTestTelemetry();
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    try {
      await expect(found.call(undefined)).resolves.toBe('found');
      await expect(failed.call(undefined)).resolves.toBe("Tool 'lookup' failed: not found");
      expect(beforeCall).toHaveBeenCalledTimes(2);
      expect(afterCompletion).toHaveBeenCalledTimes(3);
      expect(telemetry.spans().map((span) => span.status.code)).toEqual([0, 2]);
    } finally {
      await telemetry.shutdown();
    }
  });

  it('gives every step to a subclass that overrides one, with nothing registered too', () => {
    const results: unknown[] = [];
    class AuditingListener extends OpenTelemetryToolCallListener {
      override afterCall(state: never, toolName: string, toolInput: unknown, result: unknown) {
        results.push(result);
        super.afterCall(state, toolName, toolInput, result);
      }
    }
    const tool = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, () => 'found'),
      new AuditingListener(),
    );
    expect(tool.call(undefined)).toBe('found');
    expect(results).toEqual(['found']);
  });

  it('knows where @opentelemetry/api keeps what is registered', () => {
    expect((globalThis as Record<symbol, unknown>)[API_GLOBAL]).toBeUndefined();
    const telemetry = createTestTelemetry();
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    const registered = (globalThis as Record<symbol, { version?: string; trace?: unknown }>)[API_GLOBAL];
    expect(registered?.version).toMatch(/^1\./);
    expect(registered?.trace).toBeDefined();
  });
});
