import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { ToolCallsInstrumentation, type ToolCallsInstrumentationConfig } from 'otel-tool-calls/instrumentation';

/**
 * Runs `run` with `exports` (a copy of a module's exports) patched by the instrumentation's definition
 * for the module `name` (its supported range, not the notice for other versions), as InstrumentationBase
 * applies it, on these providers and with `config` (the listener's options: a `loggerProvider` for the
 * decisions, so that none is registered globally on either API line); then unpatched and disabled.
 * `run` gets what the patch returned.
 */
export async function underPatchedModule<Exports extends object>(
  providers: { readonly tracerProvider: TracerProvider; readonly meterProvider?: MeterProvider },
  name: string,
  exports: Exports,
  run: (patched: Exports) => Promise<void>,
  config: ToolCallsInstrumentationConfig = {},
): Promise<void> {
  const instrumentation = new ToolCallsInstrumentation({ ...config, enabled: false });
  instrumentation.setTracerProvider(providers.tracerProvider);
  if (providers.meterProvider !== undefined) instrumentation.setMeterProvider(providers.meterProvider);
  instrumentation.enable();
  const definition = instrumentation
    .getModuleDefinitions()
    .find((candidate) => candidate.name === name && candidate.supportedVersions[0] !== '*');
  if (definition?.patch === undefined) throw new Error(`no patch for ${name}`);
  try {
    await run(definition.patch(exports) as Exports);
  } finally {
    definition.unpatch?.(exports);
    instrumentation.disable();
  }
}
