import { createRequire } from 'node:module';
import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import type { generateText, streamText } from 'ai';
import { underPatchedModule } from '../helpers/patched-module.js';

/** The AI SDK's functions the patch replaces, as the tests call them. */
interface PatchedAi {
  readonly generateText: typeof generateText;
  readonly streamText: typeof streamText;
}

// the AI SDK's CommonJS exports, as require-in-the-middle hands them to the patch
const aiCommonJs = createRequire(import.meta.url)('ai') as PatchedAi;

/** Runs `run` with the patched AI SDK of an instrumentation on these providers, enabled, then undone. */
export function underAiInstrumentation(
  providers: { readonly tracerProvider: TracerProvider; readonly meterProvider?: MeterProvider },
  run: (ai: PatchedAi) => Promise<void>,
): Promise<void> {
  return underPatchedModule(providers, 'ai', aiCommonJs, run);
}
