import { compositeListener } from './composite-listener.js';
import { Invocation } from './internal/invocation.js';
import { isAsyncGenerator, isPromiseLike } from './internal/is-async-iterable.js';
import { observePromise } from './internal/observe-promise.js';
import { observeStream } from './internal/observe-stream.js';
import { toolNameOf } from './internal/tool-name.js';
import { assertListener, assertToolCallback, describe } from './internal/validate.js';
import type { ToolCallInfo, ToolCallListener } from './tool-call-listener.js';
import type { ToolCallback, ToolContext, ToolDefinition, ToolMetadata } from './tool-callback.js';

/**
 * The transparent decorator: a `ToolCallback` that reports each invocation of its delegate to a
 * listener. Definition, metadata, `toolContext` and the delegate's `this` are passed through.
 */
class ListenedToolCallback<Input, Output, Context> implements ToolCallback<Input, Output> {
  constructor(
    private readonly delegate: ToolCallback<Input, Output>,
    private readonly listener: ToolCallListener<Context>,
  ) {}

  getToolDefinition(): ToolDefinition {
    return this.delegate.getToolDefinition();
  }

  getToolMetadata(): ToolMetadata {
    return this.delegate.getToolMetadata();
  }

  call(toolInput: Input, toolContext?: ToolContext): Output {
    const { delegate, listener } = this;
    const toolDefinition = delegate.getToolDefinition();
    const toolName = toolNameOf(toolDefinition);
    const info = callInfo(toolDefinition, delegate.getToolMetadata(), toolContext);

    // Outside the guarded block, as the reference: a throwing beforeCall keeps the tool from running.
    const context = listener.beforeCall?.(toolName, toolInput, info) as Context;
    const invocation = new Invocation(listener, context, toolName, toolInput, info);

    let result: Output;
    try {
      result = invocation.run(() => delegate.call(toolInput, toolContext));
    } catch (error) {
      return invocation.fail(error) as Output;
    }
    if (isPromiseLike(result)) {
      return observePromise(result, invocation) as Output;
    }
    // only async generators are streams: any other result, async iterable or not, is returned as is
    if (isAsyncGenerator(result)) {
      return observeStream(result, invocation) as Output;
    }
    return invocation.succeed(result) as Output;
  }
}

function callInfo(
  toolDefinition: ToolDefinition,
  toolMetadata: ToolMetadata,
  toolContext: ToolContext | undefined,
): ToolCallInfo {
  if (toolContext === undefined || toolContext === null) return { toolDefinition, toolMetadata };
  let toolCallId: unknown;
  let signal: unknown;
  let framework: unknown;
  let attributes: unknown;
  try {
    ({ toolCallId, signal, framework, attributes } = toolContext);
  } catch {
    // a toolContext whose getters throw is the caller's to pass on: the tool runs as it would unwrapped
    return { toolDefinition, toolMetadata };
  }
  return {
    toolDefinition,
    toolMetadata,
    toolCallId: typeof toolCallId === 'string' ? toolCallId : undefined,
    signal: signal instanceof AbortSignal ? signal : undefined,
    framework: typeof framework === 'string' ? framework : undefined,
    attributes:
      attributes !== null && typeof attributes === 'object' ? (attributes as ToolCallInfo['attributes']) : undefined,
  };
}

function wrap<Input, Output, Context = unknown>(
  callback: ToolCallback<Input, Output>,
  listener: ToolCallListener<Context>,
): ToolCallback<Input, Output> {
  assertToolCallback(callback, 'ToolCallListeners.wrap');
  assertListener(listener, 'ToolCallListeners.wrap');
  return new ListenedToolCallback(callback, listener);
}

/** The wrapped form of each callback of a list: its own input and output types kept. */
type WrappedAll<Callbacks extends readonly ToolCallback<never, unknown>[]> = {
  -readonly [Index in keyof Callbacks]: Callbacks[Index] extends ToolCallback<infer Input, infer Output>
    ? ToolCallback<Input, Output>
    : never;
};

function wrapAll<const Callbacks extends readonly ToolCallback<never, unknown>[], Context = unknown>(
  callbacks: Callbacks,
  listener: ToolCallListener<Context>,
): WrappedAll<Callbacks> {
  if (!Array.isArray(callbacks)) {
    throw new TypeError(`ToolCallListeners.wrapAll: \`callbacks\` must be an array, got ${describe(callbacks)}`);
  }
  assertListener(listener, 'ToolCallListeners.wrapAll');
  for (const [index, callback] of callbacks.entries()) {
    assertToolCallback(callback, 'ToolCallListeners.wrapAll', `callbacks[${index}]`);
  }
  return callbacks.map((callback) => new ListenedToolCallback(callback, listener)) as WrappedAll<Callbacks>;
}

function composite(...listeners: ToolCallListener<unknown>[]): ToolCallListener<unknown[]> {
  for (const [index, listener] of listeners.entries()) {
    assertListener(listener, `ToolCallListeners.composite (listeners[${index}])`);
  }
  return compositeListener(listeners);
}

/** Wraps tool callbacks with listeners: the decorator of the reference design. */
export const ToolCallListeners = Object.freeze({
  /** A callback that reports each invocation to `listener`; same definition, metadata and types. */
  wrap,
  /** `wrap` over a list, keeping order and length. */
  wrapAll,
  /** One listener that fans out to several (see `compositeListener` for the ordering rules). */
  composite,
});
