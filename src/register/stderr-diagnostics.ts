import { Console } from 'node:console';
import { type DiagLogger, type DiagLogLevel, diag } from '@opentelemetry/api';

/** The variable that sets the diag logger's level (the SDK's, and register's). */
const LOG_LEVEL_VARIABLE = 'OTEL_LOG_LEVEL';

/**
 * Makes register's SDK (`make`: its constructor) with its diagnostics on stderr, every level. The SDK
 * sets the OpenTelemetry console logger when `OTEL_LOG_LEVEL` is set, which writes `info` and `debug`
 * with `console.info` / `console.debug`: on stdout, which an app under register did not give us, and
 * which is the JSON-RPC channel of a stdio MCP server (a strict client fails on a line that is not
 * JSON). So the logger is set here, at the variable's level (as the SDK reads it: `levelOf`), and the
 * variable is hidden from the constructor, which then sets none (NodeSDK and the lean start alike).
 * An app that sets a logger of its own, or starts an SDK of its own, sets where its diagnostics go.
 */
export function withDiagnosticsOnStderr<T>(make: () => T, levelOf: (value: string) => DiagLogLevel | undefined): T {
  const value = process.env[LOG_LEVEL_VARIABLE];
  // as the SDK's `getStringFromEnv`: unset, empty or blank is no level
  if (value === undefined || value.trim() === '') return make();
  diag.setLogger(stderrLogger(), { logLevel: levelOf(value) });
  delete process.env[LOG_LEVEL_VARIABLE];
  try {
    return make();
  } finally {
    process.env[LOG_LEVEL_VARIABLE] = value;
  }
}

/** The lines of OpenTelemetry's console logger (`DiagConsoleLogger`, level by level), all on stderr. */
function stderrLogger(): DiagLogger {
  // a console of its own: the app's `console` may be redirected, and write errors are ignored as a console's are
  const stderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  return {
    error: (message, ...args) => stderr.error(message, ...args),
    warn: (message, ...args) => stderr.warn(message, ...args),
    info: (message, ...args) => stderr.info(message, ...args),
    debug: (message, ...args) => stderr.debug(message, ...args),
    verbose: (message, ...args) => stderr.trace(message, ...args),
  };
}
