import { compositeListener } from './composite-listener.js';
import { idleCall } from './internal/idle-listener.js';
import { type Observed, type ObservedCall, observeCallNeeding } from './internal/observe-call.js';
import { UNNAMED_TOOL } from './internal/tool-name.js';
import { assertListener, assertToolCallback, describe } from './internal/validate.js';
import type { ToolCallListener } from './tool-call-listener.js';
import type { ToolCallback, ToolContext, ToolDefinition, ToolMetadata } from './tool-callback.js';

/**
 * What a wrapped tool returns, in the tool's own shape: its output, or the text a listener's
 * `onError` reported instead of the failure (sync stays sync, a Promise stays a Promise, a
 * stream gets the text as its last chunk).
 */
export type ListenedOutput<Output> = Observed<Output, string>;

/**
 * The transparent decorator: a `ToolCallback` that reports each invocation of its delegate to a
 * listener. Definition, metadata, `toolContext` and the delegate's `this` are passed through.
 */
class ListenedToolCallback<Input, Output, Context> implements ToolCallback<Input, ListenedOutput<Output>> {
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

  call(toolInput: Input, toolContext?: ToolContext): ListenedOutput<Output> {
    const { delegate, listener } = this;
    const idle = idleCall(listener);
    // nothing to observe (idle-listener.ts): the delegate's own call, not even its definition read
    if (idle === 'nothing') return delegate.call(toolInput, toolContext) as ListenedOutput<Output>;
    return observeCallNeeding(new DelegateCall(delegate, toolInput, toolContext), listener, idle);
  }
}

/** One call of the decorator's delegate, as `observeCall` takes it: one object, its `run` a method. */
class DelegateCall<Input, Output> implements ObservedCall<Output, string> {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;

  constructor(
    private readonly delegate: ToolCallback<Input, Output>,
    readonly input: Input,
    readonly toolContext: ToolContext | undefined,
  ) {
    this.definition = definitionOf(delegate);
    this.metadata = metadataOf(delegate);
  }

  run(): Output {
    return this.delegate.call(this.input, this.toolContext);
  }

  report(text: string): string {
    return text;
  }
}

/**
 * The delegate's definition, read for the listener. A `getToolDefinition()` that throws (or returns
 * no object) is the tool's own business: the tool still runs as it would unwrapped, and the call is
 * observed as `[unnamed tool]`. A function of its own, so that the try stays out of the constructor.
 */
function definitionOf(delegate: ToolCallback<never, unknown>): ToolDefinition {
  try {
    const definition = delegate.getToolDefinition();
    if (definition !== null && typeof definition === 'object') return definition;
  } catch {
    // below
  }
  return UNREADABLE_DEFINITION;
}

/** The delegate's metadata, as `definitionOf`: none when `getToolMetadata()` throws. */
function metadataOf(delegate: ToolCallback<never, unknown>): ToolMetadata {
  try {
    const metadata = delegate.getToolMetadata();
    if (metadata !== null && typeof metadata === 'object') return metadata;
  } catch {
    // below
  }
  return NO_METADATA;
}

const UNREADABLE_DEFINITION: ToolDefinition = Object.freeze({ name: UNNAMED_TOOL });
const NO_METADATA: ToolMetadata = Object.freeze({});

function wrap<Input, Output, Context = unknown>(
  callback: ToolCallback<Input, Output>,
  listener: ToolCallListener<Context>,
): ToolCallback<Input, ListenedOutput<Output>> {
  assertToolCallback(callback, 'ToolCallListeners.wrap');
  assertListener(listener, 'ToolCallListeners.wrap');
  return new ListenedToolCallback(callback, listener);
}

/** The wrapped form of each callback of a list: its own input and output types kept. */
type WrappedAll<Callbacks extends readonly ToolCallback<never, unknown>[]> = {
  -readonly [Index in keyof Callbacks]: Callbacks[Index] extends ToolCallback<infer Input, infer Output>
    ? ToolCallback<Input, ListenedOutput<Output>>
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
  /** A callback that reports each invocation to `listener`; same definition, metadata and input type. */
  wrap,
  /** `wrap` over a list, keeping order and length. */
  wrapAll,
  /** One listener that fans out to several (see `compositeListener` for the ordering rules). */
  composite,
});
