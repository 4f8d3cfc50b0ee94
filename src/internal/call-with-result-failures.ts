import type { ToolCallListener } from '../tool-call-listener.js';
import { ToolCallListeners } from '../tool-call-listeners.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../tool-callback.js';

/** One run of a framework's own tool: its value, and the error a listener should see when that value reports a failure. */
export interface RunOutcome<Value> {
  readonly value: Value;
  readonly failure?: Error;
}

/** What the framework gets back: the tool's own value (also after a rethrown result failure), or the listener's report. */
export type ListenedOutcome<Value> =
  | { readonly reported: false; readonly value: Value }
  | { readonly reported: true; readonly text: string };

export interface ResultFailureCall<Value> {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly input: unknown;
  readonly toolContext: ToolContext;
  /** Runs the tool as the framework would without instrumentation. */
  readonly run: () => Promise<RunOutcome<Value>>;
}

/**
 * One call, through the decorator, of a tool that can fail without throwing (MCP's `isError: true`
 * results, the OpenAI Agents SDK's errorFunction output). Such a failure is thrown to the listener
 * as `failure`; when the listener rethrows it, the framework gets its own value back unchanged, as
 * without instrumentation. A real throw stays a throw.
 */
export async function callWithResultFailures<Value>(
  call: ResultFailureCall<Value>,
  listener: ToolCallListener<unknown>,
): Promise<ListenedOutcome<Value>> {
  let outcome: RunOutcome<Value> | undefined;
  const callback = {
    getToolDefinition: () => call.definition,
    getToolMetadata: () => call.metadata,
    call: async (): Promise<Value> => {
      outcome = await call.run();
      if (outcome.failure !== undefined) throw outcome.failure;
      return outcome.value;
    },
  };
  try {
    const result: Value | string = await ToolCallListeners.wrap(callback, listener).call(call.input, call.toolContext);
    // the tool's own value, unless afterCall threw and the listener reported that
    if (outcome !== undefined && outcome.failure === undefined && result === outcome.value) {
      return { reported: false, value: outcome.value };
    }
    return { reported: true, text: result as string };
  } catch (error) {
    if (outcome?.failure !== undefined && error === outcome.failure) return { reported: false, value: outcome.value };
    throw error;
  }
}
