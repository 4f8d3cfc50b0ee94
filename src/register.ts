/**
 * `otel-tool-calls/register`: zero-code telemetry for an app that never imports this package.
 *
 *     node --import otel-tool-calls/register app.js      # ESM
 *     node --require otel-tool-calls/register app.cjs    # CommonJS
 *
 * Starts the OpenTelemetry Node SDK from the standard `OTEL_*` variables alone (NodeSDK's own
 * handling: `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_*` including `http/json`,
 * `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER` including `prometheus`, `OTEL_LOG_LEVEL`, ...)
 * with `ToolCallsInstrumentation`, loading only the parts of the SDK those variables select
 * (`register/lean-node-sdk.ts`: the packages `@opentelemetry/sdk-node` depends on, not sdk-node;
 * `OTEL_TOOL_CALLS_SDK=node-sdk`: NodeSDK itself, `register/register-sdk.ts`),
 * gives way to an SDK the app starts itself
 * (`register/app-sdk.ts`), and flushes at exit, for `OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS` at most,
 * so that the app ends as it would without it (`register/exit-flush.ts`). Its diagnostics
 * (`OTEL_LOG_LEVEL`) go to stderr, every level (`register/stderr-diagnostics.ts`).
 * `OTEL_SDK_DISABLED=true` turns it all off: nothing is patched. Only the main thread is
 * instrumented.
 *
 * @module
 */
import { isMainThread } from 'node:worker_threads';
import type * as Core from '@opentelemetry/core';
import { hookFrameworkModulesOnce } from './instrumentation/esm-loader-hook.js';
import { ToolCallsInstrumentation } from './instrumentation/tool-calls-instrumentation.js';
import { loadOptionalPackage } from './internal/optional-package.js';
import { shutdownTimeoutMs } from './internal/shutdown-timeout.js';
import { endOpenSessions } from './otel/open-sessions.js';
import { startGivingWayToTheAppsSdk } from './register/app-sdk.js';
import { zeroCodeReach } from './register/esm-hooks.js';
import { flushAtExit } from './register/exit-flush.js';
import { registerSdk } from './register/register-sdk.js';
import { withDiagnosticsOnStderr } from './register/stderr-diagnostics.js';

// Not in other threads: Node runs `--require` preloads in the module hooks' own thread too, and
// an app's worker threads would each start an SDK of their own.
if (isMainThread && process.env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true') start();

function start(): void {
  // one line where the runtime observes less than all, and nothing started where it observes none
  const reach = zeroCodeReach();
  if (reach === 'none') return;

  // each part as sdk-node would load it: the copies it depends on, where it is installed
  const load = <Module>(name: string) =>
    loadOptionalPackage<Module>(name, 'otel-tool-calls/register', '@opentelemetry/sdk-node');
  // made by the SDK's start, once its packages are loaded (made, it hooks every require()), and
  // enabled by it, with the providers it registered
  let instrumentation: ToolCallsInstrumentation | undefined;
  const makeInstrumentation = () => {
    instrumentation = new ToolCallsInstrumentation({ enabled: false });
    return [instrumentation];
  };
  // its diagnostics (OTEL_LOG_LEVEL) on stderr: stdout is the app's (a stdio MCP server's JSON-RPC)
  const core = load<typeof Core>('@opentelemetry/core');
  const sdk = withDiagnosticsOnStderr(
    () => registerSdk(load, makeInstrumentation),
    (value) => core.diagLogLevelFromString(value),
  );
  // read after the SDK's constructor has set the diag logger (OTEL_LOG_LEVEL): a bad value is warned about
  const timeoutMs = shutdownTimeoutMs();
  startGivingWayToTheAppsSdk(() => sdk.start(), {
    setMeterProvider: (provider) => instrumentation?.setMeterProvider(provider),
  });
  flushAtExit(
    {
      forceFlush: () => sdk.forceFlush(),
      shutdown: () => {
        // sessions still open (a stdio MCP server whose client left) end into the last export
        endOpenSessions();
        return sdk.shutdown();
      },
    },
    timeoutMs,
  );
  // ESM: import-in-the-middle's loader hook, for the framework files the instrumentation patches
  // only (every other module loads untouched). Installed once the SDK has loaded: Node's in-thread
  // hooks (22+) see every require() too, and the SDK's few hundred files need none of them.
  // CommonJS needs no hook: require-in-the-middle.
  if (reach === 'all') hookFrameworkModulesOnce(import.meta.url);
}
