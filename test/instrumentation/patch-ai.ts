import { createRequire } from 'node:module';
import type { generateText, streamText } from 'ai';
import type { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';

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
