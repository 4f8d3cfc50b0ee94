import type { Attributes, HrTime, Span, Tracer } from '@opentelemetry/api';
import { logger } from '../internal/logger.js';
import type { ToolCallInfo } from '../tool-call-listener.js';
import { type FailedAttempt, type OpenToolCall, type OuterToolCall, openToolCall } from './outer-tool-call.js';
import { spanShape } from './span-shape.js';
import { addMillis, wallClockNow } from './span-time.js';
import { NO_TIME, type ToolCallSpanState } from './tool-call-span-state.js';

// read once: on Node 20, `performance` is a lazy getter of the global object, dear on a hot path
const clock = globalThis.performance;

/** What the join needs of the listener: its tracer, and how it shapes and writes a call's span. */
export interface JoinSeam {
  readonly tracer: Tracer;
  /** The call's span attributes (the listener's `execute_tool` ones). */
  attributes(name: string, call: ToolCallInfo, toolType: string, extra: Attributes | undefined): Attributes;
  /** The call's captured arguments on `span` (and their text kept on `state` for the repeat key). */
  captureArguments(span: Span, state: ToolCallSpanState): void;
  /** The call's failure on `span` (`time`: the end of an attempt's own span). */
  writeFailure(span: Span, state: ToolCallSpanState, time?: HrTime): void;
}

/*
 * A call nested in an `execute_tool` span that already stands for it (outer-tool-call.ts finds it):
 * the same tool seen by two layers (an AI SDK tool whose body calls the MCP tool of the same name,
 * the Claude Agent SDK's hooks and its SDK MCP server, another tracer's span named for the call).
 * One span per call: the nested call joins the outer one instead of starting its own; a failure of
 * the nested call is the outer call's only if no call joins after it (else the body retried, and the
 * failed attempt gets a span of its own).
 */
export class ToolCallJoins {
  constructor(private readonly seam: JoinSeam) {}

  /**
   * `state` joins `outer`: no second span. The existing span gets what this call knows (its
   * adapter's attributes, such as MCP's, and captured arguments), later its error, and the call still
   * gives one histogram sample: the outer call's, when the outer call is this package's, else this
   * call's own.
   */
  join(
    outer: OuterToolCall,
    state: ToolCallSpanState,
    call: ToolCallInfo,
    extra: Attributes | undefined,
    explicitType: boolean,
  ): ToolCallSpanState {
    const { seam } = this;
    const { span } = outer;
    const { toolName: name, toolType } = state;
    if (outer.owner === 'this-package') {
      if (explicitType) outer.call.toolType = toolType;
      // a call that failed before this one in the same body: an attempt the body handled (a retry)
      const handled = outer.call.failedAttempt;
      outer.call.failedAttempt = undefined;
      handled?.standAlone();
    }
    // a remote call's (an MCP client's) attributes on the span, and for its protocol's duration metric
    const shapeAttributes = call.remote === undefined ? undefined : spanShape(name, call).attributes;
    if (shapeAttributes !== undefined) {
      state.remoteAttributes = Object.assign(seam.attributes(name, call, toolType, extra), shapeAttributes);
    }
    if (span.isRecording()) {
      try {
        // a span known by its name only (named-tool-span.ts) gets the call's GenAI attributes:
        // its instrumentation sets its own when the tool returns, and none when it fails
        if (outer.owner === 'other' && !outer.attributed) {
          span.setAttributes(seam.attributes(name, call, toolType, extra));
        } else if (extra !== undefined) span.setAttributes(extra);
        if (shapeAttributes !== undefined) span.setAttributes(shapeAttributes);
      } catch (error) {
        logger.error(`could not add the attributes of '${name}' to the span it joined`, error);
      }
      seam.captureArguments(span, state);
    }
    // another instrumentation's span: this call is open on it, so that the tool calling itself
    // inside it is told from a second layer (outer-tool-call.ts), as under a span of this package
    if (outer.owner === 'other') openToolCall(span, state);
    state.span = span;
    state.joined = outer;
    // found by id: the body runs in this call's own context, with the span it joined active
    if (outer.owner === 'this-package' && outer.byId === true) state.runsIn = 'span';
    return state;
  }

  /**
   * A failed call joined to `outer` (open): the outer call's failure if no call joins it after this
   * one, else an attempt of its own. Its protocol's duration sample is recorded with it either way.
   */
  handOver(outer: OpenToolCall, attempt: ToolCallSpanState, call: ToolCallInfo, endTime: number): void {
    const previous = outer.failedAttempt;
    const failed: FailedAttempt = {
      adoptInto: (into) => {
        into.error = attempt.error;
        into.errorType = attempt.errorType;
        into.outcome = attempt.outcome;
        into.failureAttributes = attempt.failureAttributes;
        into.failureMessage = attempt.failureMessage;
        into.failureException = attempt.failureException;
      },
      standAlone: () => this.recordAttempt(attempt, call, endTime),
    };
    outer.failedAttempt = failed;
    // two joined calls that failed at once (the body ran them concurrently): the last to end stands for it
    previous?.standAlone();
  }

  /**
   * A failed attempt the body got past, as its own span: what it would have been had it not joined
   * (its protocol's shape: `tools/call {tool}`, CLIENT), the child of the span it joined, with its
   * start and end; its failure on it. No `gen_ai.execute_tool.duration` sample: the call it was an
   * attempt of gives the one sample (its protocol's duration sample was recorded when it ended).
   */
  private recordAttempt(attempt: ToolCallSpanState, call: ToolCallInfo, endTime: number): void {
    const { seam } = this;
    try {
      const { toolName: name, toolType, startTime } = attempt;
      const shape = spanShape(name, call);
      const start = attemptStart(attempt);
      const end = addMillis(start, endTime - startTime);
      const attributes = attempt.remoteAttributes ?? seam.attributes(name, call, toolType, undefined);
      const span = seam.tracer.startSpan(
        shape.name,
        { kind: shape.kind, attributes, startTime: start, links: shape.links },
        attempt.parent,
      );
      seam.writeFailure(span, attempt, end);
      span.end(end);
    } catch (error) {
      logger.error(`could not record the failed attempt of '${attempt.toolName}'`, error);
    }
  }
}

/**
 * The failed attempt pending on `state` (a call that joined it), taken: adopted as its failure when
 * it has none of its own (`true`); else the attempt stands alone, a failure the body got past.
 */
export function adoptFailedAttempt(state: ToolCallSpanState): boolean {
  const attempt = state.failedAttempt;
  if (attempt === undefined) return false;
  state.failedAttempt = undefined;
  if (state.errorType !== undefined) {
    attempt.standAlone();
    return false;
  }
  attempt.adoptInto(state);
  return true;
}

/**
 * A joined call's start on the wall clock: from the start of the span it joined, when that span is
 * this package's own (the two then agree to the nanosecond), else from now.
 */
function attemptStart(attempt: ToolCallSpanState): HrTime {
  const joined = attempt.joined;
  const outer = joined?.owner === 'this-package' ? (joined.call as Partial<ToolCallSpanState>) : undefined;
  if (outer?.spanStartTime !== undefined && outer.spanStartTime !== NO_TIME && outer.startTime !== undefined) {
    return addMillis(outer.spanStartTime, attempt.startTime - outer.startTime);
  }
  return addMillis(wallClockNow(), attempt.startTime - clock.now());
}
