import type { ToolCallListener } from '../tool-call-listener.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../tool-callback.js';
import { type IdleCall, idleCall } from './idle-listener.js';
import { Invocation } from './invocation.js';
import { isAsyncGenerator, isPromiseLike } from './is-async-iterable.js';
import { observePromise } from './observe-promise.js';
import { observeStream } from './observe-stream.js';

/** The invocation of an observed call (the call kept on it). */
type CallInvocation<Output, Reported, Context> = Invocation<Context, ObservedCall<Output, Reported>>;

/** One call of a tool, as an adapter (or the decorator) knows it. */
export interface ObservedCall<Output, Reported> {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly input: unknown;
  /** `toolCallId`, `signal`, `framework`, `attributes`: what the listener is told of the call. */
  readonly toolContext?: ToolContext;
  /** Runs the tool exactly as its framework would without instrumentation (called as a method). */
  run(): Output;
  /**
   * For a framework whose tools can fail without throwing (MCP's `isError: true`, the OpenAI Agents
   * SDK's errorFunction output): the error the listener sees for such a value. When the listener
   * rethrows it, the framework gets its own value back, as without instrumentation.
   */
  readonly failureOf?: (value: Awaited<Output>) => Error | undefined;
  /** What the framework gets when a listener reports a failure: the text in the framework's shape (a method). */
  report(text: string): Reported;
}

/**
 * What an observed call returns, in the tool's own shape (sync stays sync, a Promise stays a
 * Promise, an async generator stays one): the tool's output, or `Reported` when a listener reported
 * a failure (for a stream, as its last chunk). Only async generators are streams: any other value,
 * an async iterable among them, is a plain result.
 */
export type Observed<Output, Reported> =
  Output extends PromiseLike<infer Value>
    ? Promise<Value | Reported>
    : Output extends AsyncGenerator<infer Chunk, infer Return, infer Next>
      ? AsyncGenerator<Chunk | Reported, Return, Next>
      : Output | Reported;

/**
 * Runs one call through `listener` with the rules of the reference design: `beforeCall` outside the
 * guarded block, the tool and `afterCall` inside it, `onError` deciding between reporting and
 * rethrowing, `afterCompletion` once. Every adapter and `ToolCallListeners.wrap` run calls here.
 */
export function observeCall<Output, Reported, Context>(
  call: ObservedCall<Output, Reported>,
  listener: ToolCallListener<Context>,
): Observed<Output, Reported> {
  const idle = idleCall(listener);
  if (idle === 'nothing') return call.run() as Observed<Output, Reported>;
  return observeCallNeeding(call, listener, idle);
}

/**
 * `observeCall`, for a caller that asked the listener already what the call needs (idle-listener.ts)
 * and took the `'nothing'` answer itself (the decorator calls its delegate before describing the call).
 */
export function observeCallNeeding<Output, Reported, Context>(
  call: ObservedCall<Output, Reported>,
  listener: ToolCallListener<Context>,
  idle: Exclude<IdleCall, 'nothing'> | undefined,
): Observed<Output, Reported> {
  if (idle === 'only-errors') return observeFailures(call, listener);
  // Outside the guarded block, as the reference: a throwing beforeCall keeps the tool from running.
  const invocation: CallInvocation<Output, Reported, Context> = Invocation.start(listener, call, true);
  let result: Output;
  try {
    // the tool as a function only for a listener that runs it (runInContext)
    result = listener.runInContext === undefined ? call.run() : invocation.run(runOf(call));
  } catch (error) {
    return call.report(invocation.fail(error)) as Observed<Output, Reported>;
  }
  return observeResult(call, invocation, result);
}

// Closures in functions of their own, here and below (docs/decisions.md, "Closures in functions of their own").

/** `call.run` as a function, for `runInContext`. */
function runOf<Output>(call: ObservedCall<Output, unknown>): () => Output {
  return () => call.run();
}

/** What the tool returned, observed in its own shape: a Promise, an async generator, or a value. */
function observeResult<Output, Reported, Context>(
  call: ObservedCall<Output, Reported>,
  invocation: CallInvocation<Output, Reported, Context>,
  result: Output,
): Observed<Output, Reported> {
  if (isPromiseLike(result)) {
    return observeSettlement(invocation, result as PromiseLike<Awaited<Output>>) as Observed<Output, Reported>;
  }
  // only async generators are streams: any other result, async iterable or not, is returned as is
  if (isAsyncGenerator(result)) {
    return observeStream(result, invocation, (text) => call.report(text)) as Observed<Output, Reported>;
  }
  return settled(call, invocation, result as Awaited<Output>) as Observed<Output, Reported>;
}

/** The two reactions are the invocation's bound methods, not closures (docs/decisions.md). */
function observeSettlement<Output, Reported, Context>(
  invocation: CallInvocation<Output, Reported, Context>,
  result: PromiseLike<Awaited<Output>>,
): Promise<Awaited<Output> | Reported> {
  const bound = invocation as AnyCallInvocation;
  return observePromise(result, reactions.settled.bind(bound), reactions.failed.bind(bound)) as Promise<
    Awaited<Output> | Reported
  >;
}

type AnyCallInvocation = CallInvocation<unknown, unknown, unknown>;

// methods, not named functions: `bind` stays on its fast path under tsx (docs/decisions.md)
const reactions = {
  settled(this: AnyCallInvocation, value: unknown): unknown {
    return settled(this.call, this, value);
  },
  failed(this: AnyCallInvocation, error: unknown): unknown {
    return this.call.report(this.fail(error));
  },
};

/**
 * A call for which only the listener's `onError` matters (idle-listener.ts): no `beforeCall`, and
 * a success is the tool's own value, untouched (for a Promise, the one reaction is on rejection).
 * A failure goes through the same `Invocation` rules as any other, with the context `beforeCall`
 * would have returned (`undefined`). A stream, or a framework's failure in the result
 * (`failureOf`), takes the general path's steps.
 */
function observeFailures<Output, Reported, Context>(
  call: ObservedCall<Output, Reported>,
  listener: ToolCallListener<Context>,
): Observed<Output, Reported> {
  let result: Output;
  try {
    result = call.run();
  } catch (error) {
    return failedIdle(call, listener, error) as Observed<Output, Reported>;
  }
  if (call.failureOf === undefined) {
    if (isPromiseLike(result)) return observeIdleRejection(call, listener, result) as Observed<Output, Reported>;
    if (!isAsyncGenerator(result)) return result as Observed<Output, Reported>;
  }
  return observeResult(call, Invocation.start(listener, call, false), result);
}

/** No `onValue`: the value is the caller's as it is; only a rejection reaches the listener. */
function observeIdleRejection<Output, Reported, Context>(
  call: ObservedCall<Output, Reported>,
  listener: ToolCallListener<Context>,
  result: PromiseLike<unknown>,
): Promise<unknown> {
  return observePromise(result, undefined, (error) => failedIdle(call, listener, error));
}

function failedIdle<Output, Reported, Context>(
  call: ObservedCall<Output, Reported>,
  listener: ToolCallListener<Context>,
  error: unknown,
): Reported {
  return call.report(Invocation.start(listener, call, false).fail(error));
}

/** A value the tool gave: a success, or a failure in the result (`failureOf`); what the caller gets. */
function settled<Output, Reported, Context>(
  call: ObservedCall<Output, Reported>,
  invocation: Invocation<Context>,
  value: Awaited<Output>,
): Awaited<Output> | Reported {
  const failure = call.failureOf?.(value);
  if (failure !== undefined) {
    try {
      return call.report(invocation.fail(failure));
    } catch (thrown) {
      // rethrown: the framework's own failed value, as without instrumentation
      if (thrown === failure) return value;
      throw thrown;
    }
  }
  const reported = invocation.succeed(value);
  return reported === undefined ? value : call.report(reported);
}
