import { logger } from './logger.js';

/**
 * The variable that bounds the last flush, in milliseconds: register's at exit, and
 * `startToolCallTelemetry().shutdown()`'s.
 */
export const SHUTDOWN_TIMEOUT_VARIABLE = 'OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS';

/**
 * The bound when the variable is unset: about what a collector on the same host or network needs
 * to take a last batch, and short against the exporters' own retries and timeouts (10 s).
 */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 1000;

/** The largest delay `setTimeout` keeps (beyond it Node waits 1 ms instead). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * How long the last flush is waited for: `OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS`, a number of
 * milliseconds from 0 (do not wait) to 2147483647. Unset or empty: the default; anything else: the
 * default, with a diag warning.
 */
export function shutdownTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[SHUTDOWN_TIMEOUT_VARIABLE]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const value = Number(raw);
  if (Number.isFinite(value) && value >= 0 && value <= MAX_TIMEOUT_MS) return value;
  logger.warn(
    `${SHUTDOWN_TIMEOUT_VARIABLE}=${raw} is not a number of milliseconds from 0 to ${MAX_TIMEOUT_MS}; ` +
      `using ${DEFAULT_SHUTDOWN_TIMEOUT_MS}`,
  );
  return DEFAULT_SHUTDOWN_TIMEOUT_MS;
}
