import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useDiagLog } from '../helpers/diag-log.js';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
const logged = useDiagLog();

/** Unhandled rejections seen while a test runs (each one would end a Node host with exit code 1). */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** Long enough for Node to have reported an unhandled rejection. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const failure = new Error('tool failed');
const fails = functionToolCallback({ name: 'fails' }, () => {
  throw failure;
});
const asyncRejecting = async () => {
  throw new Error('async misuse');
};

describe('a user function that returns a rejecting Promise never crashes the host', () => {
  it('an async errorPolicy that rejects: logged, the failure rethrown, no unhandled rejection', async () => {
    const listener = telemetry.listener({ errorPolicy: asyncRejecting as never });
    expect(() => ToolCallListeners.wrap(fails, listener).call(undefined)).toThrow(failure);
    await settle();
    expect(unhandled).toEqual([]);
    expect(logged.some((line) => line.includes('errorPolicy') && line.includes('Promise'))).toBe(true);
    expect(logged.some((line) => line.includes('async misuse'))).toBe(true);
    expect(telemetry.spans()).toHaveLength(1);
  });

  it('an async toolErrorPolicies entry that rejects: the same', async () => {
    const listener = telemetry.listener({ toolErrorPolicies: { fails: asyncRejecting as never } });
    expect(() => ToolCallListeners.wrap(fails, listener).call(undefined)).toThrow(failure);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('async formatError, redact and span hooks that reject: logged, the call unchanged', async () => {
    const listener = telemetry.listener({
      errorPolicy: 'report',
      captureContent: true,
      formatError: asyncRejecting as never,
      redact: asyncRejecting as never,
      onSpanStart: asyncRejecting,
      onSpanEnd: asyncRejecting,
    });
    expect(ToolCallListeners.wrap(fails, listener).call({ q: 1 })).toBe("Tool 'fails' failed: tool failed");
    await settle();
    expect(unhandled).toEqual([]);
    expect(logged.filter((line) => line.includes('returned a Promise that rejected'))).toHaveLength(4);
  });
});
