import type { ToolMessage } from '@langchain/core/messages';

/**
 * Where a reported failure gets LangChain's `ToolMessage` class: `wrapTools` imports LangChain's
 * messages module (it is there, the app made the tools with it); zero-code takes the class from
 * the module as LangChain loads it, so that `otel-tool-calls/instrumentation` reaches no LangChain
 * module itself and bundles without it. `undefined`: no class, the failure is reported as the text.
 */
export type LoadToolMessage = () => Promise<typeof ToolMessage | undefined>;

/** LangChain's messages module, loaded on the first reported failure, not when the adapter is imported. */
export const importToolMessage: LoadToolMessage = async () => (await import('@langchain/core/messages')).ToolMessage;
