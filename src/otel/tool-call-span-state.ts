import { type Attributes, type Context, type HrTime, INVALID_SPAN_CONTEXT, type Span, trace } from '@opentelemetry/api';
import type { ToolCallInfo } from '../tool-call-listener.js';
import type { OpenToolCall, OuterToolCall } from './outer-tool-call.js';
import { GEN_AI_TOOL_NAME_VALUE_UNKNOWN } from './semconv.js';

/** A call's span until it has one, and when the tracer could not start one: it records nothing. */
export const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
/** A call's span start until it has a span of its own (a call that joins one has none). */
export const NO_TIME: HrTime = [0, 0];

/** The listener's per-call state (its correlation context): the span, and what the metrics need at the end. */
export interface ToolCallSpanState extends OpenToolCall {
  /** The call's own span, or the `execute_tool` span it joined. */
  span: Span;
  /** The context the call started in: the metrics are recorded in it. */
  readonly parent: Context;
  /**
   * Where the tool body runs: `'span'`, in `parent` with the span set; `'context'`, for a span with an
   * invalid context (no tracer provider), in `parent` with the call open in it, so that a call nested
   * in it (the same call observed by a second layer) still joins it and counts once; `'caller'`, in
   * the caller's context (a joined call: the outer call's context is already there). That context is
   * made when the body runs, not kept: a call in flight would hold one more context object (about
   * 0.4 KB, with its closures and map) until it settles.
   */
  runsIn: 'span' | 'context' | 'caller';
  /** `performance.now()` at the start; the span gets the same start and end as the histogram. */
  readonly startTime: number;
  /** The span's start (span-time.ts): its end is this plus the histogram's duration. */
  spanStartTime: HrTime;
  result?: unknown;
  /** The captured text of the arguments as given (no redaction changed them): the repeat key is made of it. */
  argumentsText: string | undefined;
  /** The span of an outer call that already stands for this one: no span of its own (outer-tool-call.ts). */
  joined: OuterToolCall | undefined;
  /** `ToolCallInfo.attributes`, bounded: frozen when the same object comes call after call (the listener's `boundedExtra`). */
  readonly extra: Attributes | undefined;
  /** A remote call's span attributes at its start: the protocol's duration metric picks from them. */
  remoteAttributes: Attributes | undefined;
  /**
   * `gen_ai.tool.name` in the metrics: the tool name, or `_unknown` for a tool the app does not have
   * (known at the start, or from the error: a low-level MCP server's `-32601`).
   */
  metricToolName: string;
  /**
   * A call the framework rejected (the model called it wrong): its error counts as the model's
   * (`tool_call.error.source`). Known at the start (`ToolCallInfo.rejection`), or from the error.
   */
  rejected: boolean;
}

/**
 * Every field set at once, in one order: the state objects of all calls share one shape, which
 * keeps the listener's property reads fast (a spread, then fields added later, did not). The span
 * is set once it is started (or joined).
 */
export function callState(
  toolName: string,
  call: ToolCallInfo,
  toolInput: unknown,
  toolType: string,
  startTime: number,
  parent: Context,
  extra: Attributes | undefined,
): ToolCallSpanState {
  return {
    toolName,
    toolCallId: call.toolCallId,
    framework: call.framework,
    toolInput,
    side: remoteSide(call),
    correlation: call.correlation,
    foreignSpan: call.foreignSpan,
    span: NO_SPAN,
    parent,
    runsIn: 'caller',
    startTime,
    spanStartTime: NO_TIME,
    toolType,
    joined: undefined,
    result: undefined,
    argumentsText: undefined,
    error: undefined,
    errorType: undefined,
    outcome: undefined,
    completed: false,
    extra,
    remoteAttributes: undefined,
    failureAttributes: undefined,
    failureMessage: undefined,
    failureException: undefined,
    failedAttempt: undefined,
    // a model can invent any number of tool names: one series for all of them
    metricToolName: call.rejection === 'unknown_tool' ? GEN_AI_TOOL_NAME_VALUE_UNKNOWN : toolName,
    rejected: call.rejection !== undefined,
  };
}

/** `call.remote.side`, read safely: a malformed `remote` is an in-process call (span-shape.ts). */
function remoteSide(call: ToolCallInfo): 'client' | 'server' | undefined {
  try {
    const side = call.remote?.side;
    return side === 'client' || side === 'server' ? side : undefined;
  } catch {
    return undefined;
  }
}
