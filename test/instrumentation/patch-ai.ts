import { createRequire } from 'node:module';
import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import type { generateText, streamText } from 'ai';
import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';

// the AI SDK's CommonJS exports, as require-in-the-middle hands them to the patch
const aiCommonJs = createRequire(import.meta.url)('ai') as Record<string, unknown>;

/** The instrumentation's patch of the `ai` module, applied as InstrumentationBase applies it. */
export function patchAi(instrumentation: ToolCallsInstrumentation) {
  const definition = instrumentation
    .getModuleDefinitions()
    .find((candidate) => candidate.name === 'ai' && candidate.supportedVersions[0] !== '*');
  const patched = definition?.patch?.(aiCommonJs) as {
    generateText: typeof generateText;
    streamText: typeof streamText;
  };
  return { patched, unpatch: () => definition?.unpatch?.(aiCommonJs) };
}

/** Runs `run` with the patched AI SDK of an instrumentation on these providers, enabled, then undone. */
export async function underAiInstrumentation(
  providers: { readonly tracerProvider: TracerProvider; readonly meterProvider?: MeterProvider },
  run: (ai: ReturnType<typeof patchAi>['patched']) => Promise<void>,
): Promise<void> {
  const instrumentation = new ToolCallsInstrumentation({ enabled: false });
  instrumentation.setTracerProvider(providers.tracerProvider);
  if (providers.meterProvider !== undefined) instrumentation.setMeterProvider(providers.meterProvider);
  instrumentation.enable();
  const { patched, unpatch } = patchAi(instrumentation);
  try {
    await run(patched);
  } finally {
    unpatch();
    instrumentation.disable();
  }
}
