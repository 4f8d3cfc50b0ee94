import type { ToolCallInfo, ToolCallListener } from '../tool-call-listener.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../tool-callback.js';
import { callInfo } from './call-info.js';
import { recordFailureOutcome, recordLateRejection } from './call-outcome.js';
import { rejectionOf } from './rejection-mark.js';
import { toolNameOf } from './tool-name.js';

/** What an invocation needs of the call it observes: what the listener is told of it (observe-call.ts). */
export interface InvokedCall {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly input: unknown;
  readonly toolContext?: ToolContext;
}

/**
 * The listener side of one invocation: the guarded-block rules of the reference design in one
 * place, shared by the sync, Promise and stream paths.
 *
 * The name and the `ToolCallInfo` the listener gets are made for `beforeCall`, or, for a listener
 * without it, when a hook first needs them; then kept (every hook of the invocation gets the same
 * info object): a listener with only `onError` costs no info object on a call that succeeds. Both
 * are made by functions that never throw: made late, they change only when `toolContext`'s fields
 * are read (docs/listener-api.md).
 *
 * One is made per call: its fields are assigned, not defined (docs/decisions.md, "The invocation's fields").
 */
export class Invocation<Context, Call extends InvokedCall = InvokedCall> {
  private completed = false;

  constructor(
    private readonly listener: ToolCallListener<Context>,
    /** The call observed: kept here so that a Promise's reactions can be bound to the invocation alone. */
    readonly call: Call,
    /** What `beforeCall` returned; `undefined` without it. */
    private readonly context: Context,
    private name: string | undefined,
    private info: ToolCallInfo | undefined,
  ) {}

  /**
   * The invocation of `call`, after `beforeCall` when `withBeforeCall` and the listener has one
   * (outside the guarded block: a throwing `beforeCall` keeps the tool from running). Made after
   * it, with every field at its final value (docs/decisions.md, "The invocation made once").
   */
  static start<Context, Call extends InvokedCall>(
    listener: ToolCallListener<Context>,
    call: Call,
    withBeforeCall: boolean,
  ): Invocation<Context, Call> {
    if (!withBeforeCall || listener.beforeCall === undefined) {
      return new Invocation(listener, call, undefined as Context, undefined, undefined);
    }
    const name = toolNameOf(call.definition);
    const info = callInfoOf(call);
    const context = listener.beforeCall(name, call.input, info);
    return new Invocation(listener, call, context, name, info);
  }

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
    this.listener.afterCall?.(this.context, this.toolName(), this.call.input, result, this.callInfo());
  }

  /** Returns the text reported to the model, or throws the original error (same identity). */
  fail(error: unknown): string {
    let reported: string | null | undefined;
    recordLateRejection(this.callInfo(), rejectionOf(error));
    try {
      reported = this.listener.onError?.(this.context, this.toolName(), this.call.input, error, this.callInfo());
    } catch (onErrorFailure) {
      // the onError error replaces the original: what propagates is an error, whatever was decided
      recordFailureOutcome(this.callInfo(), 'rethrown');
      this.complete();
      throw onErrorFailure;
    }
    // recorded before afterCompletion: a listener learns there what the caller actually gets
    recordFailureOutcome(this.callInfo(), typeof reported === 'string' ? 'reported' : 'rethrown');
    this.complete();
    if (typeof reported === 'string') return reported;
    throw error;
  }

  /** `afterCompletion` at most once, whatever path ends the invocation. */
  complete(): void {
    if (this.completed) return;
    this.completed = true;
    this.listener.afterCompletion?.(this.context, this.toolName(), this.call.input, this.callInfo());
  }

  private toolName(): string {
    if (this.name === undefined) this.name = toolNameOf(this.call.definition);
    return this.name;
  }

  private callInfo(): ToolCallInfo {
    if (this.info === undefined) this.info = callInfoOf(this.call);
    return this.info;
  }
}

function callInfoOf(call: InvokedCall): ToolCallInfo {
  return callInfo(call.definition, call.metadata, call.toolContext);
}
