import {
  type Attributes,
  type Context,
  type Counter,
  context,
  type Histogram,
  isSpanContextValid,
  type Meter,
  metrics,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { logger } from '../internal/logger.js';
import type { ToolCallInfo, ToolCallListener } from '../tool-call-listener.js';
import { VERSION } from '../version.js';
import { captureContent } from './content-capture.js';
import { decideErrorPolicy } from './error-policy.js';
import { isErrorLike } from './error-type.js';
import { recordRemoteCallDuration } from './remote-call-metrics.js';
import { defaultFormatError, resolveOptions } from './resolve-options.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  GEN_AI_DURATION_BUCKETS,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_TOOL_TYPE_VALUE_FUNCTION,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
  TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from './semconv.js';
import { failureAttributes, failureShape, spanShape } from './span-shape.js';
import type { OpenTelemetryToolCallListenerOptions, ToolCallSpanHook } from './types.js';

const SCOPE_NAME = 'otel-tool-calls';

/** The listener's per-call state (its correlation context): the span, and what the metrics need at the end. */
interface ToolCallSpanState {
  readonly span: Span;
  /** The parent context with the span set: the tool body runs in it. */
  readonly spanContext: Context;
  /** `performance.now()` at the start; the span gets the same start and end as the histogram. */
  readonly startTime: number;
  readonly toolType: string;
  /** The span's attributes at its start: the protocol's duration metric picks from them. */
  readonly attributes: Attributes;
  result?: unknown;
  error?: unknown;
  errorType?: string;
  outcome?: string;
  /** What a failure added beside `error.type` (the peer's status code). */
  failureAttributes?: Attributes;
}

interface Instruments {
  readonly meter: Meter;
  readonly duration: Histogram;
  readonly errors: Counter;
}

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
  private instruments: Instruments | undefined;

  constructor(options?: OpenTelemetryToolCallListenerOptions) {
    this.options = resolveOptions(options);
    const tracerProvider = this.options.tracerProvider ?? trace.getTracerProvider();
    this.tracer = tracerProvider.getTracer(SCOPE_NAME, VERSION);
  }

  beforeCall(toolName: string, toolInput: unknown, call: ToolCallInfo): ToolCallSpanState | undefined {
    try {
      const { options } = this;
      const toolType = attributeText(call.attributes?.[ATTR_GEN_AI_TOOL_TYPE]) ?? GEN_AI_TOOL_TYPE_VALUE_FUNCTION;
      const attributes: Attributes = { ...call.attributes };
      attributes[ATTR_GEN_AI_OPERATION_NAME] = GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
      attributes[ATTR_GEN_AI_TOOL_NAME] = toolName;
      attributes[ATTR_GEN_AI_TOOL_TYPE] = toolType;
      if (call.toolCallId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = call.toolCallId;
      const description = attributeText(call.toolDefinition?.description);
      if (description !== undefined) attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = description;
      if (options.agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = options.agentName;
      // execute_tool {tool} (INTERNAL), or what a remote call's protocol asks (span-shape.ts)
      const shape = spanShape(toolName, call);
      Object.assign(attributes, shape.attributes);
      const startTime = performance.now();
      const parent = context.active();
      const span = this.tracer.startSpan(
        shape.name,
        { kind: shape.kind, attributes, startTime, links: shape.links },
        parent,
      );
      // after the start, and only for a recording span: no serialization when nothing is exported
      if (options.captureContent && span.isRecording()) {
        span.setAttribute(
          ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
          captureContent(toolInput, { kind: 'arguments', toolName }, options.redact, options.maxContentLength),
        );
      }
      // no SDK (or no valid parent): the span has an invalid context, and the parent context is as good
      const spanContext = isSpanContextValid(span.spanContext()) ? trace.setSpan(parent, span) : parent;
      const state: ToolCallSpanState = { span, spanContext, startTime, toolType, attributes };
      this.runHook('onSpanStart', options.onSpanStart, span, { toolName, toolInput, call });
      return state;
    } catch (error) {
      logger.error(`could not start the span of '${toolName}'`, error);
      return undefined;
    }
  }

  runInContext<R>(state: ToolCallSpanState | undefined, run: () => R): R {
    return state ? context.with(state.spanContext, run) : run();
  }

  afterCall(state: ToolCallSpanState | undefined, toolName: string, _input: unknown, result: unknown): void {
    if (!state) return;
    state.result = result;
    if (!this.options.captureContent || result === undefined || !state.span.isRecording()) return;
    try {
      const text = captureContent(
        result,
        { kind: 'result', toolName },
        this.options.redact,
        this.options.maxContentLength,
      );
      state.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, text);
    } catch (error) {
      logger.error(`could not capture the result of '${toolName}'`, error);
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
    const decision = decideErrorPolicy(options.errorPolicy, options.toolErrorPolicies, toolName, error, call);
    const outcome =
      decision === 'report' ? TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED : TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN;
    if (state) this.recordError(state, toolName, error, outcome, call);
    return decision === 'report' ? this.reportText(toolName, error, call) : null;
  }

  afterCompletion(state: ToolCallSpanState | undefined, toolName: string, toolInput: unknown, call: ToolCallInfo) {
    if (!state) return;
    const { span, startTime, toolType, errorType, outcome } = state;
    this.runHook('onSpanEnd', this.options.onSpanEnd, span, {
      toolName,
      toolInput,
      call,
      ...(errorType === undefined ? { result: state.result } : { error: state.error }),
    });
    try {
      const endTime = performance.now();
      span.end(endTime);
      const attributes: Attributes = { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_GEN_AI_TOOL_TYPE]: toolType };
      if (this.options.agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = this.options.agentName;
      if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
      const instruments = this.getInstruments();
      const seconds = (endTime - startTime) / 1000;
      instruments.duration.record(seconds, attributes);
      if (errorType !== undefined) {
        // a new object: the SDK may keep the one given to the histogram
        instruments.errors.add(1, { ...attributes, [ATTR_TOOL_CALL_ERROR_OUTCOME]: outcome as string });
      }
      if (call.remote !== undefined) {
        // the protocol's own duration metric (MCP: mcp.client/server.operation.duration), from the span's attributes
        const endAttributes = { ...state.attributes, ...state.failureAttributes };
        if (errorType !== undefined) endAttributes[ATTR_ERROR_TYPE] = errorType;
        recordRemoteCallDuration(instruments.meter, call, seconds, endAttributes);
      }
    } catch (error) {
      logger.error(`could not end the span of '${toolName}'`, error);
    }
  }

  private recordError(state: ToolCallSpanState, toolName: string, error: unknown, outcome: string, call: ToolCallInfo) {
    try {
      // the error's own code/name, or what a remote call's protocol says of it (span-shape.ts)
      const failure = failureShape(error, call);
      state.error = error;
      state.errorType = failure.type;
      state.outcome = outcome;
      state.failureAttributes = failureAttributes(failure);
      const { span } = state;
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
      span.setAttribute(ATTR_ERROR_TYPE, failure.type);
      span.setAttributes(state.failureAttributes);
      span.setAttribute(ATTR_TOOL_CALL_ERROR_OUTCOME, outcome);
      if (this.options.recordException && isErrorLike(error)) span.recordException(error);
    } catch (recordError) {
      logger.error(`could not record the error of '${toolName}'`, recordError);
    }
  }

  /** The user's `formatError`, falling back to the default text if it throws or is not a string. */
  private reportText(toolName: string, error: unknown, call: ToolCallInfo): string {
    const { formatError } = this.options;
    if (formatError !== defaultFormatError) {
      try {
        const text = formatError(toolName, error, call);
        if (typeof text === 'string') return text;
        logger.error(`formatError for '${toolName}' returned ${typeof text}; using the default text`);
      } catch (formatFailure) {
        logger.error(`formatError for '${toolName}' threw; using the default text`, formatFailure);
      }
    }
    return defaultFormatError(toolName, error, call);
  }

  // Looked up at the first call, not in the constructor: the global metrics API has no proxy,
  // so a listener made before the SDK starts would otherwise keep a no-op meter forever.
  private getInstruments(): Instruments {
    if (this.instruments) return this.instruments;
    const meterProvider = this.options.meterProvider ?? metrics.getMeterProvider();
    const meter = meterProvider.getMeter(SCOPE_NAME, VERSION);
    this.instruments = {
      meter,
      duration: meter.createHistogram(METRIC_GEN_AI_EXECUTE_TOOL_DURATION, {
        unit: 's',
        description: 'Duration of tool call operations (GenAI semantic conventions, execute_tool)',
        advice: { explicitBucketBoundaries: [...GEN_AI_DURATION_BUCKETS] },
      }),
      errors: meter.createCounter(METRIC_TOOL_CALL_ERRORS, {
        unit: '{error}',
        description: 'Failed tool calls, by outcome (reported to the model or rethrown); otel-tool-calls own metric',
      }),
    };
    return this.instruments;
  }

  private runHook(
    name: string,
    hook: ToolCallSpanHook | undefined,
    span: Span,
    event: Parameters<ToolCallSpanHook>[1],
  ) {
    if (!hook) return;
    try {
      hook(span, event);
    } catch (error) {
      logger.error(`${name} hook threw for '${event.toolName}'`, error);
    }
  }
}

function attributeText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
