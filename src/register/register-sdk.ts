import { diag } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type * as SdkNode from '@opentelemetry/sdk-node';
import { LeanNodeSdk } from './lean-node-sdk.js';
import type { LoadPackage } from './sdk-from-env.js';

/** The variable that chooses register's SDK start: `lean` (default) or `node-sdk`. */
export const REGISTER_SDK_VARIABLE = 'OTEL_TOOL_CALLS_SDK';

/** What register does with its SDK. */
export interface RegisterSdk {
  start(): void;
  /** Exports what the providers hold, and goes on. */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Register's SDK: the lean start (lean-node-sdk.ts, a fork of NodeSDK that loads only what the
 * variables select), or with `OTEL_TOOL_CALLS_SDK=node-sdk` NodeSDK itself, for an app that wants
 * upstream's code exactly (a variable the fork does not read yet, a suspected divergence).
 * `instrumentations`: made once the SDK's packages are loaded.
 */
export function registerSdk(load: LoadPackage, instrumentations: () => Instrumentation[]): RegisterSdk {
  const choice = process.env[REGISTER_SDK_VARIABLE]?.trim().toLowerCase() || 'lean';
  if (choice === 'node-sdk') return nodeSdk(load('@opentelemetry/sdk-node'), instrumentations());
  const sdk = new LeanNodeSdk({ instrumentations }, load);
  // after the SDK's constructor has set the diag logger (OTEL_LOG_LEVEL)
  if (choice !== 'lean') {
    diag.warn(`${REGISTER_SDK_VARIABLE}="${choice}" is not "lean" or "node-sdk": register uses the lean start.`);
  }
  return sdk;
}

/** The providers NodeSDK keeps (private, the same fields on the 2.x and 3.x lines). */
interface NodeSdkProviders {
  readonly _tracerProvider?: { forceFlush(): Promise<void> };
  readonly _meterProvider?: { forceFlush(): Promise<void> };
  readonly _loggerProvider?: { forceFlush(): Promise<void> };
}

function nodeSdk(sdkNode: typeof SdkNode, instrumentations: Instrumentation[]): RegisterSdk {
  const sdk = new sdkNode.NodeSDK({ instrumentations });
  const providers = sdk as unknown as NodeSdkProviders;
  return {
    start: () => sdk.start(),
    // NodeSDK has no forceFlush: its providers'
    forceFlush: () =>
      Promise.all([
        providers._tracerProvider?.forceFlush(),
        providers._loggerProvider?.forceFlush(),
        providers._meterProvider?.forceFlush(),
      ]).then(() => undefined),
    shutdown: () => sdk.shutdown(),
  };
}
