import {
  type Attributes,
  type Context,
  context,
  type HrTime,
  INVALID_SPANID,
  INVALID_TRACEID,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { IDLE_CALL, type IdleCall } from '../internal/idle-listener.js';
import { logger } from '../internal/logger.js';
import { IGNORES_DECISIONS_KEY as IGNORES_DECISIONS } from '../internal/protocol.js';
import type { ToolCallDecision, ToolCallInfo, ToolCallListener } from '../tool-call-listener.js';
import { VERSION } from '../version.js';
import { boundedAttribute, boundedAttributes } from './bounded-text.js';
import { captureContent, contentText, redactContent } from './content-capture.js';
import { emitDecision } from './decision-log.js';
import { decideErrorPolicy } from './error-policy.js';
import { isErrorLike } from './error-type.js';
import { emitException } from './exception-log.js';
import { hasExceptionEvent, keepFailure } from './kept-failure.js';
import { isCallersMistake } from './mcp-server-status.js';
import { keepHidden, OPERATION_TELEMETRY, type OperationTelemetry } from './operation-telemetry.js';
import {
  closeCallById,
  closeToolCall,
  contextWithToolCall,
  openCallById,
  openToolCall,
  outerToolCall,
} from './outer-tool-call.js';
import { exceptionOf, inputRejectedMessage, quotesArguments } from './rejected-input.js';
import { type McpSide, mcpOperationAttributes, mcpSideOf, recordMcpOperationSample } from './remote-call-metrics.js';
import { RepeatedCalls, repeatKey, repeatKeyOfCaptured } from './repeated-calls.js';
import { defaultFormatError, resolveOptions } from './resolve-options.js';
import { resultSize } from './result-size.js';
import {
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  ATTR_TOOL_CALL_REPEAT_COUNT,
  GEN_AI_TOOL_NAME_VALUE_UNKNOWN,
  GEN_AI_TOOL_TYPE_VALUE_FUNCTION,
  TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
  TOOL_CALL_ERROR_SOURCE_VALUE_MODEL,
} from './semconv.js';
import { failureAttributes, failureShape, spanShape } from './span-shape.js';
import { addMillis, wallClockNow } from './span-time.js';
import { ATTR_ERROR_TYPE } from './stable-semconv.js';
import { adoptFailedAttempt, ToolCallJoins } from './tool-call-join.js';
import { SCOPE_NAME, ToolCallMetrics } from './tool-call-metrics.js';
import { callState, NO_SPAN, type ToolCallSpanState } from './tool-call-span-state.js';
import { executeToolAttributes, executeToolSpanName } from './tool-span.js';
import type { OpenTelemetryToolCallListenerOptions, ToolCallSpanHook } from './types.js';
import { HOOK_THREW, HOOK_WENT_ASYNC, runUserHook } from './user-hook.js';

/** What the API's global tracer provider delegates to while no SDK is registered. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
// read once: on Node 20, `performance` is a lazy getter of the global object, dear on a hot path
const clock = globalThis.performance;
/**
 * Where every copy of `@opentelemetry/api` 1.x keeps what is registered (providers, context manager,
 * propagator, diag logger): absent until something registers. A test checks it against the API.
 */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/**
 * A `ToolCallListener` that turns each tool call into an `execute_tool` span (OpenTelemetry GenAI
 * semantic conventions), a `gen_ai.execute_tool.duration` sample and, on failure, a
 * `tool_call.errors` increment, and applies the error policy (report to the model, or rethrow).
 *
 * It never throws: its own failures and its hooks' are caught and logged through `diag`.
 */
export class OpenTelemetryToolCallListener implements ToolCallListener<ToolCallSpanState | undefined> {
  private readonly options: ReturnType<typeof resolveOptions>;
  private readonly tracer: Tracer;
  /** `options.agentName` as a metric attribute: bounded. */
  private readonly agentName: string | undefined;
  private readonly metrics: ToolCallMetrics;
  /** A call nested in a span that stands for it already: joined to it (tool-call-join.ts). */
  private readonly joins: ToolCallJoins;
  /** The recent traces' calls, to tell a repeated call (`recordRepeatedCalls`). */
  private readonly repeatedCalls: RepeatedCalls | undefined;
  /** The API's global tracer provider, when spans go there: asked at each call whether an SDK is behind it. */
  private readonly globalTracerProvider: ProxyTracerProvider | undefined;
  /** No SDK, no hook: a call has nothing to record, and only the error policy applies. */
  private readonly mayRecordNothing: boolean;
  /** This class's own beforeCall, afterCall, afterCompletion and runInContext: not a subclass's overrides. */
  private readonly ownCallSteps: boolean;
  /** Every failure rethrown as it is (the default policy, this class's own onError): with no state, nothing to do. */
  private readonly rethrowsEveryFailure: boolean;
  /** The last frozen `ToolCallInfo.attributes` and their bounded copy: a session's calls hand the same object. */
  private lastExtra: { readonly given: object; readonly bounded: Attributes } | undefined;
  /** The last successful remote call's protocol sample attributes, by what they are made of. */
  private lastRemoteSample:
    | { readonly extra: Attributes; readonly toolName: string; readonly side: McpSide; readonly attributes: Attributes }
    | undefined;

  constructor(options?: OpenTelemetryToolCallListenerOptions) {
    this.options = resolveOptions(options);
    this.agentName = this.options.agentName === undefined ? undefined : boundedAttribute(this.options.agentName);
    this.metrics = new ToolCallMetrics(this.options.meterProvider, this.agentName);
    const tracerProvider = this.options.tracerProvider ?? trace.getTracerProvider();
    this.tracer = tracerProvider.getTracer(SCOPE_NAME, VERSION);
    this.globalTracerProvider = tracerProvider instanceof ProxyTracerProvider ? tracerProvider : undefined;
    this.repeatedCalls = this.options.recordRepeatedCalls ? new RepeatedCalls() : undefined;
    this.joins = new ToolCallJoins({
      tracer: this.tracer,
      attributes: (name, call, toolType, extra) => this.spanAttributes(name, call, toolType, extra),
      captureArguments: (span, state) => this.captureArguments(span, state),
      writeFailure: (span, state, time) => this.writeFailure(span, state, time),
    });
    const { meterProvider, onSpanStart, onSpanEnd } = this.options;
    this.mayRecordNothing =
      this.globalTracerProvider !== undefined &&
      meterProvider === undefined &&
      onSpanStart === undefined &&
      onSpanEnd === undefined;
    const own = OpenTelemetryToolCallListener.prototype;
    this.ownCallSteps =
      this.beforeCall === own.beforeCall &&
      this.afterCall === own.afterCall &&
      this.afterCompletion === own.afterCompletion &&
      this.runInContext === own.runInContext;
    const { errorPolicy, toolErrorPolicies } = this.options;
    this.rethrowsEveryFailure =
      this.onError === own.onError &&
      errorPolicy === 'rethrow' &&
      Object.values(toolErrorPolicies).every((policy) => policy === 'rethrow');
    // the protocol operations that are not tool calls (MCP's tools/list, ...) use the same tracer and meter
    const telemetry: OperationTelemetry = { tracer: this.tracer, meter: () => this.metrics.meter() };
    keepHidden(this, OPERATION_TELEMETRY, telemetry);
    // told to the adapters, which then leave the frameworks' approval hooks as they are (takes-decisions.ts)
    if (!this.options.recordDecisions) keepHidden(this, IGNORES_DECISIONS, true);
  }

  /**
   * Nothing registered (a library's listener in a host without OpenTelemetry): no span, no clock,
   * no attributes. Asked at each call, so that an SDK registered later is picked up at once.
   */
  private recordsNothing(): boolean {
    if (!this.mayRecordNothing) return false;
    // nothing registered at all: one property read (the API's getters also check its version)
    if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return true;
    return this.globalTracerProvider?.getDelegate() === NOOP_TRACER_PROVIDER && this.metrics.nowhere();
  }

  /**
   * Asked by the decorator before a call (idle-listener.ts): with nothing to record, `beforeCall`
   * would return no state, and without state every step but `onError` does nothing; with a policy
   * that rethrows every failure, `onError` does nothing either.
   */
  [IDLE_CALL](): IdleCall | undefined {
    if (!this.ownCallSteps || !this.recordsNothing()) return undefined;
    return this.rethrowsEveryFailure ? 'nothing' : 'only-errors';
  }

  beforeCall(toolName: string, toolInput: unknown, call: ToolCallInfo): ToolCallSpanState | undefined {
    if (this.recordsNothing()) return undefined;
    const name = nameOf(toolName);
    try {
      const { options } = this;
      // what an adapter (or the app's toolContext) adds: bounded once, for the span and its joins
      const extra = this.boundedExtra(call.attributes);
      const explicitType = attributeText(extra?.[ATTR_GEN_AI_TOOL_TYPE]);
      const toolType = explicitType ?? GEN_AI_TOOL_TYPE_VALUE_FUNCTION;
      const startTime = clock.now();
      const parent = context.active();
      // the state is the call's identity too (what tells it from a call it is nested in)
      const state = callState(name, call, toolInput, toolType, startTime, parent, extra);
      const outer = options.keepNestedSpans ? undefined : outerToolCall(parent, state);
      if (outer !== undefined) {
        const joined = this.joins.join(outer, state, call, extra, explicitType !== undefined);
        // another tracer's span stands for the call: it is this call's; a call of this package's own
        // stands for it: that call counted it
        if (joined.joined?.owner === 'other') this.countRepeat(joined);
        return joined;
      }
      // read only for a span of its own: a call that joins one does not end it
      state.spanStartTime = wallClockNow();
      const span = this.startSpan(state, call, extra, parent);
      state.span = span;
      this.captureArguments(span, state);
      if (this.repeatedCalls !== undefined) this.countRepeat(state);
      // a call nested in this one (the same tool observed twice) joins it while it is open: through
      // its span, or, with no tracer provider (an invalid span context), through the body's context
      if (hasValidContext(span)) {
        state.runsIn = 'span';
        openToolCall(span, state);
      } else {
        state.runsIn = 'context';
      }
      // a call whose body runs elsewhere: found by its correlation key (outer-tool-call.ts)
      if (state.correlation?.role === 'outer') openCallById(state.correlation.key, span, state);
      // the event object only for a hook that is set
      if (options.onSpanStart !== undefined) {
        this.runHook('onSpanStart', options.onSpanStart, span, { toolName: name, toolInput, call });
      }
      return state;
    } catch (error) {
      logger.error(`could not start the telemetry of '${name}'`, error);
      return undefined;
    }
  }

  /**
   * `ToolCallInfo.attributes`, bounded (bounded-text.ts). A frozen object of data properties cannot
   * change: the copy made of it is kept, frozen too, and given again for the same object (an MCP
   * session's attributes, made once per session). Its identity then stands for its content
   * (`remoteSampleAttributes`).
   */
  private boundedExtra(given: unknown): Attributes | undefined {
    if (given === undefined) return undefined;
    const last = this.lastExtra;
    if (last !== undefined && last.given === given) return last.bounded;
    const bounded = boundedAttributes(given);
    if (bounded !== undefined && isFrozenData(given)) {
      this.lastExtra = { given, bounded: Object.freeze(bounded) };
    }
    return bounded;
  }

  /**
   * The call's span: `execute_tool {tool}` (INTERNAL) with the GenAI attributes, or what a remote
   * call's protocol asks (span-shape.ts). A tracer that throws (a span processor whose onStart
   * throws) gives a span that records nothing: metrics must not depend on tracing.
   */
  private startSpan(
    state: ToolCallSpanState,
    call: ToolCallInfo,
    extra: Attributes | undefined,
    parent: Context,
  ): Span {
    const { toolName: name, spanStartTime: startTime } = state;
    const attributes = this.spanAttributes(name, call, state.toolType, extra);
    try {
      if (call.remote === undefined) {
        return this.tracer.startSpan(
          executeToolSpanName(name),
          { kind: SpanKind.INTERNAL, attributes, startTime },
          parent,
        );
      }
      const shape = spanShape(name, call);
      Object.assign(attributes, shape.attributes);
      // the protocol's duration metric picks from the span's start attributes
      state.remoteAttributes = attributes;
      return this.tracer.startSpan(shape.name, { kind: shape.kind, attributes, startTime, links: shape.links }, parent);
    } catch (error) {
      logger.error(`could not start the span of '${name}'`, error);
      return NO_SPAN;
    }
  }

  private spanAttributes(name: string, call: ToolCallInfo, toolType: string, extra: Attributes | undefined) {
    return executeToolAttributes(name, call, toolType, extra, this.agentName);
  }

  /**
   * The call's arguments on `span` (its own, or the one it joined), only for a recording span: no
   * serialization when nothing is exported. The text of the arguments as given (no `redact`, or one that
   * gave them back) is kept for the repeat key, so that each getter is read once (countRepeat).
   */
  private captureArguments(span: Span, state: ToolCallSpanState): void {
    const { options } = this;
    if (!options.captureContent || !span.isRecording()) return;
    const { toolName: name, toolInput } = state;
    try {
      const redacted = redactContent(toolInput, { kind: 'arguments', toolName: name }, options.redact);
      const text = contentText(redacted, options.maxContentLength);
      span.setAttribute(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, text);
      if (redacted === toolInput) state.argumentsText = text;
    } catch (error) {
      logger.error(`could not capture the arguments of '${name}'`, error);
    }
  }

  /**
   * A call that repeats an earlier one of its trace: `tool_call.repeat.count` on its span, one
   * `tool_call.repeats`. No trace (a span with no id: no SDK), nothing counted; a call that starts its
   * trace (no parent span) follows no call of it, and is not remembered: only a call nested in it
   * could repeat it. The arguments' key is made now, while the call starts (repeated-calls.ts): the
   * table never holds the arguments themselves. Their captured text, when there is one, is read back
   * rather than the arguments read a second time.
   */
  private countRepeat(state: ToolCallSpanState): void {
    const { repeatedCalls } = this;
    if (repeatedCalls === undefined || trace.getSpan(state.parent) === undefined) return;
    try {
      const { traceId } = state.span.spanContext();
      if (traceId === INVALID_TRACEID) return;
      const { maxContentLength } = this.options;
      const captured = state.argumentsText;
      const key =
        captured === undefined
          ? repeatKey(state.toolInput, maxContentLength)
          : repeatKeyOfCaptured(captured, maxContentLength);
      const before = repeatedCalls.before(traceId, state.toolName, key);
      if (before === 0) return;
      state.span.setAttribute(ATTR_TOOL_CALL_REPEAT_COUNT, before);
      this.metrics.repeat(state.metricToolName);
    } catch (error) {
      logger.error(`could not count the repeats of '${state.toolName}'`, error);
    }
  }

  runInContext<R>(state: ToolCallSpanState | undefined, run: () => R): R {
    if (state === undefined || state.runsIn === 'caller') return run();
    const { parent, span } = state;
    return context.with(
      state.runsIn === 'span' ? trace.setSpan(parent, span) : contextWithToolCall(parent, state, span),
      run,
    );
  }

  afterCall(state: ToolCallSpanState | undefined, toolName: string, _input: unknown, result: unknown): void {
    if (!state) return;
    state.result = result;
    if (!this.options.captureContent || result === undefined || !state.span.isRecording()) return;
    try {
      const text = captureContent(
        result,
        { kind: 'result', toolName: nameOf(toolName) },
        this.options.redact,
        this.options.maxContentLength,
      );
      state.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, text);
    } catch (error) {
      logger.error(`could not capture the result of '${nameOf(toolName)}'`, error);
    }
  }

  onError(
    state: ToolCallSpanState | undefined,
    toolName: string,
    _input: unknown,
    error: unknown,
    call: ToolCallInfo,
  ): string | null {
    const { options } = this;
    const name = nameOf(toolName);
    // policies and formatError get the name as given; telemetry and the default text the bounded one
    const givenName = typeof toolName === 'string' ? toolName : name;
    const decision = decideErrorPolicy(options.errorPolicy, options.toolErrorPolicies, givenName, error, call);
    const outcome =
      decision === 'report' ? TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED : TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN;
    if (state) this.recordError(state, error, outcome, call);
    return decision === 'report' ? this.reportText(givenName, name, error, call) : null;
  }

  afterCompletion(state: ToolCallSpanState | undefined, _toolName: string, toolInput: unknown, call: ToolCallInfo) {
    if (!state) return;
    // the failure of a call that joined this one, no call after it: this call's, if it has none of its own
    const adopted = state.errorType === undefined && adoptFailedAttempt(state);
    // the name as bounded at the start (nameOf(toolName)): the span's and the metrics' own
    const { toolName: name, span, startTime, toolType, errorType, joined } = state;
    const outcome = this.finalOutcome(state, call);
    const endTime = clock.now();
    if (joined?.owner === 'this-package' && !joined.call.completed) {
      // the outer call gives the one sample; this call's failure is its, unless a call joins it after this one
      if (errorType !== undefined) this.joins.handOver(joined.call, state, call, endTime);
      this.recordRemoteCall(state, call, endTime);
      return;
    }
    // a failure not on the span yet: adopted, or kept back while the call it joined was open
    if (adopted || (errorType !== undefined && joined?.owner === 'this-package')) this.writeFailure(span, state);
    const { onSpanEnd } = this.options;
    if (joined === undefined) {
      // the event object only for a hook that is set
      if (onSpanEnd !== undefined) {
        this.runHook('onSpanEnd', onSpanEnd, span, {
          toolName: name,
          toolInput,
          call,
          ...(errorType === undefined ? { result: state.result } : { error: state.error }),
        });
      }
      closeToolCall(span, state);
      if (state.correlation?.role === 'outer') closeCallById(state.correlation.key, state);
      // each in its own guard: a span processor whose onEnd throws must not cost the metrics
      try {
        span.end(addMillis(state.spanStartTime, endTime - startTime));
      } catch (error) {
        logger.error(`could not end the span of '${name}'`, error);
      }
    } else if (joined.owner === 'other') {
      closeToolCall(span, state);
    }
    state.completed = true;
    try {
      const seconds = (endTime - startTime) / 1000;
      this.metrics.record(state.parent, seconds, state.metricToolName, toolType, errorType, outcome, state.rejected);
      if (errorType === undefined && this.options.recordResultSize) this.recordResultSize(state);
    } catch (error) {
      // the wording the first battery checks for: the end of the call's telemetry failed
      logger.error(`could not end the span of '${name}': recording its metrics failed`, error);
    }
    this.recordRemoteCall(state, call, endTime);
  }

  /** `tool_call.result.size`: computed only when a meter records it (result-size.ts bounds its cost). */
  private recordResultSize(state: ToolCallSpanState): void {
    if (this.metrics.meter() === undefined) return;
    const bytes = resultSize(state.result);
    // a result that cannot be read (a throwing getter): no size to give
    if (!Number.isNaN(bytes)) this.metrics.resultSize(state.parent, state.metricToolName, bytes);
  }

  /**
   * A decision told by an adapter: a decision log record (decision-log.ts) in the active context and,
   * for a wait inside this process, a `tool_call.approval.duration` sample. Never throws.
   */
  onDecision(decision: ToolCallDecision): void {
    if (!this.options.recordDecisions) return;
    try {
      const toolName = nameOf(decision.toolName);
      const { outcome, toolCallId, conversationId, waitSeconds } = decision;
      if (outcome !== 'allow' && outcome !== 'deny' && outcome !== 'require_approval') {
        logger.error(`a decision on '${toolName}' with an unknown outcome (${String(outcome)}) was not recorded`);
        return;
      }
      emitDecision(this.options.loggerProvider, {
        toolName,
        outcome,
        toolCallId: typeof toolCallId === 'string' ? toolCallId : undefined,
        conversationId: typeof conversationId === 'string' ? conversationId : undefined,
      });
      if (outcome !== 'require_approval' && typeof waitSeconds === 'number' && waitSeconds >= 0) {
        this.metrics.approval(toolName, outcome, waitSeconds);
      }
    } catch (error) {
      logger.error('could not record a decision on a tool call', error);
    }
  }

  /** A remote call's own duration metric (MCP: `mcp.client/server.operation.duration`), from its span's attributes. */
  private recordRemoteCall(state: ToolCallSpanState, call: ToolCallInfo, endTime: number): void {
    if (state.remoteAttributes === undefined) return;
    try {
      const meter = this.metrics.meter();
      if (meter === undefined) return;
      const side = mcpSideOf(call);
      if (side === undefined) return;
      const seconds = (endTime - state.startTime) / 1000;
      recordMcpOperationSample(meter, side, seconds, this.remoteSampleAttributes(state, side));
    } catch (error) {
      logger.error(`could not record the protocol metric of '${state.toolName}'`, error);
    }
  }

  /**
   * The protocol sample's attributes: the span's at its end, allow-listed. A success's are made of
   * the adapter's attributes, the tool's name and the side alone (the rest of the span's is per call,
   * and not on the list): the same as the call before's when those are (its `extra` the same frozen
   * copy, `boundedExtra`), and kept for the next.
   */
  private remoteSampleAttributes(state: ToolCallSpanState, side: McpSide): Attributes {
    const { extra, metricToolName: toolName } = state;
    const reusable = state.errorType === undefined && extra !== undefined && Object.isFrozen(extra);
    const last = this.lastRemoteSample;
    if (reusable && last !== undefined && last.extra === extra && last.toolName === toolName && last.side === side) {
      return last.attributes;
    }
    // not a spread: a spread copy that gains a key (error.type) is dear on Node 20 (spanAttributes)
    const endAttributes = Object.assign({}, state.remoteAttributes, state.failureAttributes);
    // the caller's mistake is no error of the server in its protocol's metric (mcp-server-status.ts)
    if (state.errorType !== undefined && !isCallersMistakeOf(state)) endAttributes[ATTR_ERROR_TYPE] = state.errorType;
    // a tool the app does not have: one series, as in gen_ai.execute_tool.duration
    endAttributes[ATTR_GEN_AI_TOOL_NAME] = toolName;
    const attributes = mcpOperationAttributes(side, endAttributes);
    if (reusable) this.lastRemoteSample = { extra, toolName, side, attributes: Object.freeze(attributes) };
    return attributes;
  }

  /**
   * The outcome of a failure as the caller saw it. `onError` only knows this listener's wish; the
   * decorator records what it actually did (in a composite another listener's report text wins
   * over this listener's rethrow, and a throwing `onError` turns a report into a throw), and the
   * span and counter say that.
   */
  private finalOutcome(state: ToolCallSpanState, call: ToolCallInfo): string | undefined {
    if (state.errorType === undefined) return undefined;
    const actual = call.failureOutcome;
    if (actual === undefined || actual === state.outcome) return state.outcome;
    state.outcome = actual;
    // a failure kept back (a call joined to another of this package's) is written with its outcome later
    if (state.joined?.owner === 'this-package') return actual;
    try {
      state.span.setAttribute(ATTR_TOOL_CALL_ERROR_OUTCOME, actual);
    } catch (error) {
      logger.error('could not correct the error outcome of a span', error);
    }
    return actual;
  }

  private recordError(state: ToolCallSpanState, error: unknown, outcome: string, call: ToolCallInfo) {
    // a call joined to another of this package's: whose failure it is, is known when it ends
    // (a retry may follow it); its span is the other's, so it is written then (afterCompletion)
    const keptBack = state.joined?.owner === 'this-package';
    // the failure of a call that joined this one, before this call's own, which supersedes it
    if (adoptFailedAttempt(state) && !keptBack) this.writeFailure(state.span, state);
    // what the metrics need first, so that a failing span cannot cost them: the error's own
    // code/name, or what a remote call's protocol says of it (span-shape.ts)
    const failure = failureShape(error, call);
    if (call.rejection !== undefined) state.rejected = true;
    // a tool the app does not have, learnt from the error: one series for any name, as at the start
    if (call.rejection === 'unknown_tool') state.metricToolName = GEN_AI_TOOL_NAME_VALUE_UNKNOWN;
    state.error = error;
    state.errorType = failure.type;
    state.outcome = outcome;
    state.failureAttributes = failureAttributes(failure);
    // a rejection of the model's arguments: the framework's message quotes them (rejected-input.ts)
    const quoted = quotesArguments(call);
    const { captureContent, redact } = this.options;
    state.failureMessage =
      quoted && !(captureContent && redact === undefined) ? inputRejectedMessage(state.toolName) : failure.message;
    state.failureException =
      quoted && isErrorLike(error) ? exceptionOf(error, failure.type, state.failureMessage) : undefined;
    if (!keptBack) this.writeFailure(state.span, state);
  }

  /** The call's failure on `span` (its own, the one it joined, or the span of an attempt: `time`, its end). */
  private writeFailure(span: Span, state: ToolCallSpanState, time?: HrTime): void {
    const { error } = state;
    try {
      // a server's answer to the caller's mistake (an unknown tool, -32602): its status code, no error of its span
      const callersMistake = isCallersMistakeOf(state);
      if (!callersMistake) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: state.failureMessage });
        span.setAttribute(ATTR_ERROR_TYPE, state.errorType as string);
      }
      if (state.failureAttributes !== undefined) span.setAttributes(state.failureAttributes);
      span.setAttribute(ATTR_TOOL_CALL_ERROR_OUTCOME, state.outcome as string);
      if (state.rejected) span.setAttribute(ATTR_TOOL_CALL_ERROR_SOURCE, TOOL_CALL_ERROR_SOURCE_VALUE_MODEL);
      const foreign = state.joined?.owner === 'other';
      // one exception per failure: a joined span whose instrumentation recorded it has it
      const exception = this.options.recordException && !callersMistake && isErrorLike(error);
      if (exception && !(foreign && hasExceptionEvent(span))) this.recordExceptionOf(span, state, time);
      // another instrumentation's span must not lose it when that instrumentation ends it
      if (foreign) keepFailure(span);
    } catch (recordError) {
      logger.error(`could not record the error of '${state.toolName}'`, recordError);
    }
  }

  /**
   * The failure's exception where `exceptionSignal` puts it: an `exception` event on `span`, a log
   * record in its context (exception-log.ts), or both.
   */
  private recordExceptionOf(span: Span, state: ToolCallSpanState, time: HrTime | undefined): void {
    const exception = state.failureException ?? (state.error as Error);
    const { exceptionSignal, loggerProvider } = this.options;
    if (exceptionSignal !== 'logs') span.recordException(exception, time);
    if (exceptionSignal === 'span-events') return;
    emitException(loggerProvider, {
      exception,
      errorType: state.errorType,
      toolName: state.toolName,
      toolCallId: state.toolCallId,
      context: trace.setSpan(state.parent, span),
      time,
    });
  }

  /** The user's `formatError`, falling back to the default text if it throws or is not a string. */
  private reportText(toolName: string, boundedName: string, error: unknown, call: ToolCallInfo): string {
    const { formatError } = this.options;
    if (formatError !== defaultFormatError) {
      const text: unknown = runUserHook(
        () => `formatError for '${toolName}'`,
        () => `formatError for '${toolName}' threw; using the default text`,
        () => formatError(toolName, error, call),
      );
      if (typeof text === 'string') return text;
      if (text !== HOOK_THREW) {
        const returned = text === HOOK_WENT_ASYNC ? 'object' : typeof text;
        logger.error(`formatError for '${toolName}' returned ${returned}; using the default text`);
      }
    }
    return defaultFormatError(boundedName, error, call);
  }

  private runHook(
    name: string,
    hook: ToolCallSpanHook | undefined,
    span: Span,
    event: Parameters<ToolCallSpanHook>[1],
  ) {
    if (!hook) return;
    runUserHook(
      () => `${name} hook for '${event.toolName}'`,
      () => `${name} hook threw for '${event.toolName}'`,
      () => hook(span, event),
    );
  }
}

/**
 * The tool name as span name, attribute and metric attribute: bounded (a 1 MB name must not be a
 * metric attribute). The decorator always passes a string; a listener called directly may not be.
 */
function nameOf(toolName: unknown): string {
  if (typeof toolName === 'string') return boundedAttribute(toolName);
  try {
    return boundedAttribute(String(toolName));
  } catch {
    return '[unnamed tool]';
  }
}

/**
 * A remote call's failure that its protocol does not count as an error of this side: a server's
 * answer to a request the caller got wrong (mcp-server-status.ts). The metrics of the tool call keep it.
 */
function isCallersMistakeOf(state: ToolCallSpanState): boolean {
  return isCallersMistake(state.side, state.failureAttributes?.[ATTR_RPC_RESPONSE_STATUS_CODE]);
}

/** A span that has an id: one the SDK made. (The API's own check runs two regular expressions per call.) */
function hasValidContext(span: Span): boolean {
  const { traceId, spanId } = span.spanContext();
  return traceId !== INVALID_TRACEID && spanId !== INVALID_SPANID;
}

/** A frozen object whose properties hold values (no getter): what it gives cannot change. */
function isFrozenData(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  try {
    if (!Object.isFrozen(value)) return false;
    const descriptors = Object.getOwnPropertyDescriptors(value);
    for (const key in descriptors) if (!('value' in (descriptors[key] as PropertyDescriptor))) return false;
    return true;
  } catch {
    // a Proxy whose traps throw
    return false;
  }
}

function attributeText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
