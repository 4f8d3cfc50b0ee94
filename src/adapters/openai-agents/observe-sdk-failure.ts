import type { SdkToolFailure } from './function-tool-error.js';
import { recordSpanErrors } from './span-errors.js';

/** What `defaultToolErrorFunction` of the SDK (`tool()`'s errorFunction unless one is given) returns. */
export const SDK_DEFAULT_ERROR_TEXT = 'An error occurred while running the tool. Please try again.';

/** Whether the SDK turned a failure of the call into its output, and what it said of it. */
export interface SdkOutcome {
  readonly failed: boolean;
  readonly failure?: SdkToolFailure;
}

/**
 * What the adapter needs of the SDK itself, handed in rather than imported: `wrapTools` takes it from
 * `@openai/agents`, zero-code from the SDK module as it loads (so the instrumentation imports none).
 */
export interface AgentsSdk {
  readonly getCurrentSpan: () => object | null;
  /** The run's trace, whose `groupId` names the conversation (conversation-id.ts). */
  readonly getCurrentTrace?: () => object | null;
  /** The SDK's `tool()`: what tells its constant approval policies (constant-policy.ts). */
  readonly tool?: unknown;
}

/** The outcome each observed `invoke` found, by the promise it returned: what a wrapper around it reads. */
const outcomes = new WeakMap<object, () => SdkOutcome>();

/** Keeps `outcome` (read once `returned` settles) for a wrapper around this observed `invoke`. */
export function keepOutcome(returned: object, outcome: () => SdkOutcome): void {
  outcomes.set(returned, outcome);
}

/**
 * Runs `invoke` (the tool's own, with nothing around it changed) and tells whether the SDK turned
 * a failure into its output.
 *
 * `tool()` keeps `execute` and `errorFunction` in a closure: when `execute` throws, `invoke`
 * resolves to the errorFunction's output and the thrown value is gone. The one signal the SDK gives
 * on that path is `getCurrentSpan()?.setError(...)`, made right before it calls the errorFunction
 * (with its tracing on or off: a no-op span is current then). So:
 * - with a current span (every call the runner makes), a `setError` on it in this call's context
 *   is the failure (span-errors.ts); the tool body sees that span itself;
 * - with none (a tool invoked directly, outside a trace or its spans), there is nothing to signal
 *   on, and the tool body must see none: the SDK's default errorFunction text is the failure. A
 *   tool's own errorFunction is not recognised there (docs/frameworks/openai-agents.md);
 * - when `invoke` is itself observed (a wrapped tool wrapped again), the inner one saw the SDK's
 *   signal: its outcome is this one's.
 */
export async function observeSdkFailure<T>(
  sdk: AgentsSdk,
  invoke: () => Promise<T>,
): Promise<SdkOutcome & { readonly output: T }> {
  let returned: Promise<T> | undefined;
  const call = () => {
    returned = invoke();
    return returned;
  };
  let failure: SdkToolFailure | undefined;
  let failed = false;
  const record = (error: unknown) => {
    failed = true;
    failure = error !== null && typeof error === 'object' ? (error as SdkToolFailure) : undefined;
  };
  const span: object | null = sdk.getCurrentSpan();
  const { output, watched } =
    span === null ? { output: await call(), watched: false } : await recordSpanErrors(span, record, call);
  const inner = returned === undefined ? undefined : outcomes.get(returned);
  if (inner !== undefined) {
    const seen = inner();
    return { output, failed: seen.failed, failure: seen.failure };
  }
  if (watched) return { output, failed, failure };
  return { output, failed: output === SDK_DEFAULT_ERROR_TEXT };
}
