import type { ToolCallListener } from '../tool-call-listener.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../tool-callback.js';
import { callInfo } from './call-info.js';
import { Invocation } from './invocation.js';
import { isAsyncGenerator, isPromiseLike } from './is-async-iterable.js';
import { observePromise } from './observe-promise.js';
import { observeStream } from './observe-stream.js';
import { toolNameOf } from './tool-name.js';

/** One call of a tool, as an adapter (or the decorator) knows it. */
export interface ObservedCall<Output, Reported> {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly input: unknown;
  /** `toolCallId`, `signal`, `framework`, `attributes`: what the listener is told of the call. */
  readonly toolContext?: ToolContext;
  /** Runs the tool exactly as its framework would without instrumentation. */
  readonly run: () => Output;
  /**
   * For a framework whose tools can fail without throwing (MCP's `isError: true`, the OpenAI Agents
   * SDK's errorFunction output): the error the listener sees for such a value. When the listener
   * rethrows it, the framework gets its own value back, as without instrumentation.
   */
  readonly failureOf?: (value: Awaited<Output>) => Error | undefined;
  /** What the framework gets when a listener reports a failure: the text in the framework's shape. */
  readonly report: (text: string) => Reported;
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
  const { definition, input, report } = call;
  const toolName = toolNameOf(definition);
  const info = callInfo(definition, call.metadata, call.toolContext);

  // Outside the guarded block, as the reference: a throwing beforeCall keeps the tool from running.
  const context = listener.beforeCall?.(toolName, input, info) as Context;
  const invocation = new Invocation(listener, context, toolName, input, info);

  const failed = (error: unknown): Reported => report(invocation.fail(error));
  const settled = (value: Awaited<Output>): Awaited<Output> | Reported => {
    const failure = call.failureOf?.(value);
    if (failure !== undefined) {
      try {
        return failed(failure);
      } catch (thrown) {
        // rethrown: the framework's own failed value, as without instrumentation
        if (thrown === failure) return value;
        throw thrown;
      }
    }
    const reported = invocation.succeed(value);
    return reported === undefined ? value : report(reported);
  };

  let result: Output;
  try {
    result = invocation.run(call.run);
  } catch (error) {
    return failed(error) as Observed<Output, Reported>;
  }
  if (isPromiseLike(result)) {
    return observePromise(result as PromiseLike<Awaited<Output>>, settled, failed) as Observed<Output, Reported>;
  }
  // only async generators are streams: any other result, async iterable or not, is returned as is
  if (isAsyncGenerator(result)) {
    return observeStream(result, invocation, report) as Observed<Output, Reported>;
  }
  return settled(result as Awaited<Output>) as Observed<Output, Reported>;
}
