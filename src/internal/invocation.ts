import type { ToolCallInfo, ToolCallListener } from '../tool-call-listener.js';
import { recordFailureOutcome } from './call-outcome.js';

/** What an invocation needs of the call it observes: its input, and the call itself (observe-call.ts). */
export interface InvokedCall {
  readonly input: unknown;
}

/**
 * The listener side of one invocation, after `beforeCall` returned: the guarded-block rules of
 * the reference design in one place, shared by the sync, Promise and stream paths.
 */
export class Invocation<Context, Call extends InvokedCall = InvokedCall> {
  private completed = false;

  constructor(
    private readonly listener: ToolCallListener<Context>,
    private readonly context: Context,
    private readonly toolName: string,
    private readonly info: ToolCallInfo,
    /** The call observed: kept here so that a Promise's reactions can be bound to the invocation alone. */
    readonly call: Call,
  ) {}

  run<R>(body: () => R): R {
    const { listener } = this;
    return listener.runInContext ? listener.runInContext(this.context, body) : body();
  }

  /**
   * `afterCall` is in the guarded block: if it throws, the invocation fails with that error.
   * Returns `undefined` when the result stands, or the text reported for the `afterCall` failure.
   */
  succeed(result: unknown): string | undefined {
    try {
      this.afterCall(result);
    } catch (error) {
      return this.fail(error);
    }
    this.complete();
    return undefined;
  }

  afterCall(result: unknown): void {
    this.listener.afterCall?.(this.context, this.toolName, this.call.input, result, this.info);
  }

  /** Returns the text reported to the model, or throws the original error (same identity). */
  fail(error: unknown): string {
    let reported: string | null | undefined;
    try {
      reported = this.listener.onError?.(this.context, this.toolName, this.call.input, error, this.info);
    } catch (onErrorFailure) {
      // the onError error replaces the original: what propagates is an error, whatever was decided
      recordFailureOutcome(this.info, 'rethrown');
      this.complete();
      throw onErrorFailure;
    }
    // recorded before afterCompletion: a listener learns there what the caller actually gets
    recordFailureOutcome(this.info, typeof reported === 'string' ? 'reported' : 'rethrown');
    this.complete();
    if (typeof reported === 'string') return reported;
    throw error;
  }

  /** `afterCompletion` at most once, whatever path ends the invocation. */
  complete(): void {
    if (this.completed) return;
    this.completed = true;
    this.listener.afterCompletion?.(this.context, this.toolName, this.call.input, this.info);
  }
}
