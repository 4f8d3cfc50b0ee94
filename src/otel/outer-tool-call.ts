import { type Attributes, type Context, createContextKey, type Exception, type Span, trace } from '@opentelemetry/api';
import {
  CALLS_BY_CORRELATION_KEY,
  OPEN_CALL_KEY as OPEN_CALL,
  OPEN_CALL_IN_CONTEXT_DESCRIPTION,
} from '../internal/protocol.js';
import type { ForeignToolSpan, ToolCallCorrelation } from '../tool-call-listener.js';
import { namedForTool } from './named-tool-span.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from './semconv.js';

/** What a call observed by this package shares with a call nested in it, while it is open. */
export interface OpenToolCall extends CallIdentity {
  /** The metric attribute; a nested MCP call makes it `extension`. */
  toolType: string;
  error?: unknown;
  errorType?: string;
  outcome?: string;
  /** What a failure adds beside `error.type` (the peer's status code). */
  failureAttributes?: Attributes;
  /** The span status message of the failure. */
  failureMessage?: string;
  /** The exception event in place of the error, for an error whose message quotes the model's arguments. */
  failureException?: Exception;
  /**
   * A call that joined this one and failed, and no call joined after it: this call's failure if it
   * ends with none of its own (one call seen by two layers); an attempt of its own, which the body
   * handled, if another call joins after it (the body retried).
   */
  failedAttempt?: FailedAttempt;
  /** Set once the call recorded its metrics: a nested call that ends later records its own. */
  completed?: boolean;
}

/** The failure of a call that joined another: whose it is is known later (`OpenToolCall.failedAttempt`). */
export interface FailedAttempt {
  /** Makes it the failure of `call` (the one it joined): its error, `error.type`, outcome, status. */
  adoptInto(call: OpenToolCall): void;
  /** Records it as an attempt of its own: a span, the child of the one it joined. */
  standAlone(): void;
}

/** What tells one tool call from another. */
export interface CallIdentity {
  readonly toolName: string;
  readonly toolCallId: string | undefined;
  /** `ToolCallInfo.framework`: which layer observed the call. */
  readonly framework: string | undefined;
  readonly toolInput: unknown;
  /** `ToolCallInfo.remote.side`: a call that crosses a process boundary, and from which end. */
  readonly side: 'client' | 'server' | undefined;
  /** `ToolCallInfo.correlation`: the key another observer of the same call knows it by. */
  readonly correlation: ToolCallCorrelation | undefined;
  /** `ToolCallInfo.foreignSpan`: the name of the span another tracer opens for the call. */
  readonly foreignSpan: ForeignToolSpan | undefined;
}

/** The `execute_tool` span a nested call joins instead of starting its own. */
export type OuterToolCall =
  | {
      readonly owner: 'this-package';
      readonly span: Span;
      readonly call: OpenToolCall;
      /** Found by its call id, not in the context (openCallById): the body runs under its span. */
      readonly byId?: true;
    }
  | {
      readonly owner: 'other';
      readonly span: Span;
      /** False for a span known by its name only (named-tool-span.ts): it has no GenAI attributes yet. */
      readonly attributed: boolean;
    };

// The open call is kept on its span, under a registered symbol: the package loaded twice (its ESM
// and its CommonJS build, or two versions) still sees its own spans as its own, and counts a call
// once. A property, not a WeakMap: docs/decisions.md, "The open call kept on its span".
type SpanWithCall = Span & { [OPEN_CALL]?: OpenToolCall | undefined };

/** Registers the span of a call in flight, so that a call nested in it can join it. */
export function openToolCall(span: Span, call: OpenToolCall): void {
  try {
    (span as SpanWithCall)[OPEN_CALL] = call;
  } catch {
    // a span that takes no property (frozen, a Proxy): a call nested in it gets its own span
  }
}

/** Set to `undefined`, not deleted: a `delete` would turn every span of the SDK's class slow. */
export function closeToolCall(span: Span, call: OpenToolCall): void {
  try {
    if ((span as SpanWithCall)[OPEN_CALL] === call) (span as SpanWithCall)[OPEN_CALL] = undefined;
  } catch {
    // nothing was registered on it
  }
}

/*
 * Without a span to carry it (no tracer provider: metrics only, `OTEL_TRACES_EXPORTER=none`), the
 * open call travels in the tool body's context instead, with the span that was active there: a
 * call nested in it joins it only if that span is still the active one (no operation in between).
 * A registered key (createContextKey is Symbol.for), for the same reason as OPEN_CALL. Only calls
 * without a span pay for the extra context; traced calls keep theirs on the span.
 */
const OPEN_CALL_IN_CONTEXT = createContextKey(OPEN_CALL_IN_CONTEXT_DESCRIPTION);

interface OpenCallInContext {
  readonly call: OpenToolCall;
  /** The call's own span (one that records nothing): what a nested call joins. */
  readonly callSpan: Span;
  /** The span active where the call's body runs, if any. */
  readonly activeSpan: Span | undefined;
}

/** The context a call without a span of its own runs its body in: `parent`, with the call open in it. */
export function contextWithToolCall(parent: Context, call: OpenToolCall, callSpan: Span): Context {
  const open: OpenCallInContext = { call, callSpan, activeSpan: trace.getSpan(parent) };
  return parent.setValue(OPEN_CALL_IN_CONTEXT, open);
}

function openCallOf(span: Span): OpenToolCall | undefined {
  try {
    return (span as SpanWithCall)[OPEN_CALL];
  } catch {
    return undefined;
  }
}

/**
 * The `execute_tool` span that already stands for this call, if the span active where it starts
 * is one: a tool observed twice (an AI SDK tool whose `execute` calls an instrumented MCP client,
 * a tool wrapped twice, the AI SDK's own `execute_tool` span of `@ai-sdk/otel`).
 *
 * The evidence, all of it required:
 * - the active span is a call this package has open (any listener, any adapter), or a recording
 *   span whose own attributes (readable on the SDK's spans) say `gen_ai.operation.name` =
 *   `execute_tool`, or a recording span that has no `gen_ai.operation.name` yet and is named as a
 *   tool span for this very tool (named-tool-span.ts: `execute_tool {tool}`, or the name the call's
 *   `foreignSpan` gives, for a tracer that attributes its span only when the tool returns); a span
 *   whose attributes or name cannot be read is no evidence;
 * - its `gen_ai.tool.name` (when it has one) is this call's tool name;
 * - their `gen_ai.tool.call.id`s are not different (equal, or one has none: an MCP client call has
 *   none), and the two are different layers (frameworks: an MCP client call in an AI SDK tool;
 *   another instrumentation's span counts as another layer) or were handed the same input (a tool
 *   wrapped twice). A tool that calls itself is neither: each of its calls has a span, also when it
 *   passes its own call id on.
 * A span in between (the tool's own HTTP span) means another operation: the call gets its own span.
 * The server side of a remote call is an operation of its own (the conventions' `SERVER` span,
 * parented by the client's context) and never joins; nor does a call join a remote call's span.
 */
export function outerToolCall(parent: Context, call: CallIdentity): OuterToolCall | undefined {
  if (call.correlation?.role === 'inner') {
    const outer = openCallByKey(call.correlation.key);
    if (outer !== undefined || call.side === 'server') return outer;
  }
  if (call.side === 'server') return undefined;
  const span = trace.getSpan(parent);
  const own = span === undefined ? undefined : openCallOf(span);
  if (own !== undefined)
    return sameCall(own, call) ? { owner: 'this-package', span: span as Span, call: own } : undefined;
  const inContext = parent.getValue(OPEN_CALL_IN_CONTEXT) as OpenCallInContext | undefined;
  if (inContext !== undefined && inContext.activeSpan === span) {
    return sameCall(inContext.call, call)
      ? { owner: 'this-package', span: inContext.callSpan, call: inContext.call }
      : undefined;
  }
  if (span === undefined) return undefined;
  const foreign = foreignToolSpan(span, call);
  return foreign === undefined ? undefined : { owner: 'other', span, attributed: foreign === 'attributed' };
}

/** Whether `span` is another instrumentation's span of this call: by its attributes, or by its name alone. */
function foreignToolSpan(span: Span, call: CallIdentity): 'attributed' | 'named' | undefined {
  try {
    // an ended span (or one sampled out) cannot be written to: no use joining it
    if (!span.isRecording()) return undefined;
    const { attributes } = span as Partial<{ attributes: Record<string, unknown> }>;
    if (attributes === null || typeof attributes !== 'object') return undefined;
    const operation = attributes[ATTR_GEN_AI_OPERATION_NAME];
    let shape: 'attributed' | 'named';
    if (operation === GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL) shape = 'attributed';
    else if (operation === undefined && namedForTool(span, call.toolName, call.foreignSpan)) shape = 'named';
    else return undefined;
    const id = attributes[ATTR_GEN_AI_TOOL_CALL_ID];
    const named = attributes[ATTR_GEN_AI_TOOL_NAME];
    const outer = {
      toolName: shape === 'named' && named === undefined ? call.toolName : named,
      toolCallId: typeof id === 'string' ? id : undefined,
      framework: FOREIGN_LAYER,
      toolInput: FOREIGN_LAYER,
      side: undefined,
    };
    return sameCall(outer, call) ? shape : undefined;
  } catch {
    return undefined; // a span whose attributes cannot be read says nothing
  }
}

/** The framework and input of a span another instrumentation made: unlike any of this package's. */
const FOREIGN_LAYER = Symbol('another instrumentation');

interface OuterIdentity {
  readonly toolName: unknown;
  readonly toolCallId: string | undefined;
  readonly framework: unknown;
  readonly toolInput: unknown;
  readonly side: unknown;
}

/**
 * Two layers observing one call, or a tool calling itself? Different call ids: two calls. Then
 * another layer (another framework, another instrumentation) standing for the same tool is the same
 * call; so is the same layer handed the very same input (a tool wrapped twice passes it through).
 * The same layer with another input is a call the tool body made of itself (recursion passing its
 * own options, and so its call id, on): a call of its own, whose handled failure is not the outer's.
 */
function sameCall(outer: OuterIdentity, call: CallIdentity): boolean {
  if (call.side === 'server' || outer.side !== undefined || outer.toolName !== call.toolName) return false;
  if (outer.toolCallId !== undefined && call.toolCallId !== undefined && outer.toolCallId !== call.toolCallId) {
    return false;
  }
  return outer.framework !== call.framework || Object.is(outer.toolInput, call.toolInput);
}

/*
 * A call whose body runs outside the context it was opened in (`ToolCallInfo.correlation`): an
 * observer sees the call start and end (role `'outer'`: an agent's hooks) while its body runs
 * elsewhere, possibly in this process as a call another observer sees (role `'inner'`: the server
 * that handles it), both given one key. The inner call joins the outer one (one span per call, the
 * tool body under it). A registered map, for the package's ESM and CommonJS builds loaded together
 * (internal/protocol.ts). A key can be open twice (two sessions whose calls are numbered alike: a
 * gateway, a local model): the inner call cannot say which it is, and joins neither.
 */
type CallById = { readonly span: Span; readonly call: OpenToolCall };
const registry = globalThis as { [CALLS_BY_CORRELATION_KEY]?: Map<string, CallById[]> };
registry[CALLS_BY_CORRELATION_KEY] ??= new Map();
const callsById: Map<string, CallById[]> = registry[CALLS_BY_CORRELATION_KEY];

/** Opens `call` under its correlation key, for the inner call of the same key to join. */
export function openCallById(id: string, span: Span, call: OpenToolCall): void {
  const open = callsById.get(id);
  if (open === undefined) callsById.set(id, [{ span, call }]);
  else open.push({ span, call });
}

export function closeCallById(id: string, call: OpenToolCall): void {
  const open = callsById.get(id);
  if (open === undefined) return;
  const others = open.filter((entry) => entry.call !== call);
  if (others.length === 0) callsById.delete(id);
  else callsById.set(id, others);
}

function openCallByKey(key: string): OuterToolCall | undefined {
  if (callsById.size === 0) return undefined;
  const open = callsById.get(key);
  if (open?.length !== 1) return undefined;
  const [only] = open as [CallById];
  if (only.call.completed === true) return undefined;
  return { owner: 'this-package', span: only.span, call: only.call, byId: true };
}
