import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  SHUTDOWN_TIMEOUT_VARIABLE,
  shutdownTimeoutMs,
} from '../../src/internal/shutdown-timeout.js';
import { useDiagLog } from '../helpers/diag-log.js';

describe('OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: how long the last flush is waited for (register at exit, setup at shutdown)', () => {
  const logged = useDiagLog();

  it('unset or empty: 1000 ms, without a warning', () => {
    expect(SHUTDOWN_TIMEOUT_VARIABLE).toBe('OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS');
    expect(DEFAULT_SHUTDOWN_TIMEOUT_MS).toBe(1000);
    expect(shutdownTimeoutMs({})).toBe(1000);
    expect(shutdownTimeoutMs({ OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: ' ' })).toBe(1000);
    expect(logged).toEqual([]);
  });

  it.each([
    ['0', 0],
    ['500', 500],
    [' 2500 ', 2500],
    ['1500.5', 1500.5],
    ['2147483647', 2147483647],
  ])('%j: %d ms', (value, ms) => {
    expect(shutdownTimeoutMs({ OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: value })).toBe(ms);
    expect(logged).toEqual([]);
  });

  it.each(['soon', '-1', '1s', 'Infinity', '2147483648'])('%j: the default, with a diag warning', (value) => {
    expect(shutdownTimeoutMs({ OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: value })).toBe(1000);
    expect(logged).toEqual([
      `otel-tool-calls OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS=${value} is not a number of milliseconds from 0 to 2147483647; using 1000`,
    ]);
  });
});
