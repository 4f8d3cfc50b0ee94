import type { MeterProvider, Span, TracerProvider } from '@opentelemetry/api';
import type { ToolCallInfo } from '../tool-call-listener.js';
import type { DecisionLoggerProvider } from './decision-log.js';

/** What a failed call does: `report` it to the model as the tool result, or `rethrow` it. */
export type ErrorPolicyDecision = 'report' | 'rethrow';

/** A fixed decision, or a function deciding per failure (it also decides for aborted calls). */
export type ErrorPolicy = ErrorPolicyDecision | ((error: unknown, call: ToolCallInfo) => ErrorPolicyDecision);

/** The text the model sees when a failure is reported. */
export type FormatError = (toolName: string, error: unknown, call: ToolCallInfo) => string;

/** Which captured value a `redact` function is given. */
export interface RedactContext {
  readonly kind: 'arguments' | 'result';
  readonly toolName: string;
}

/** Returns the value to capture instead (e.g. with secrets masked). Runs before serialization. */
export type Redact = (value: unknown, context: RedactContext) => unknown;

/**
 * Where a failed call's exception is recorded: `'span-events'`, an `exception` event on its span;
 * `'logs'`, a log record in the span's context instead (the semantic conventions' way since core
 * v1.44.0, which deprecates the span event); `'logs/dup'`, both.
 */
export type ExceptionSignal = 'span-events' | 'logs' | 'logs/dup';

/** What the span hooks are told about the call. */
export interface ToolCallSpanEvent {
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly call: ToolCallInfo;
  /** Set on `onSpanEnd` after a success: the tool's result (the last chunk of a stream). */
  readonly result?: unknown;
  /** Set on `onSpanEnd` after a failure: the thrown value. */
  readonly error?: unknown;
}

/** Adds attributes to a span. A hook that throws is caught and logged through `diag`. */
export type ToolCallSpanHook = (span: Span, event: ToolCallSpanEvent) => void;

export interface OpenTelemetryToolCallListenerOptions {
  /** Where spans go. @default the global tracer provider */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go. @default the global meter provider (looked up at the first call) */
  readonly meterProvider?: MeterProvider;
  /**
   * What a failed call does. Telemetry must not change what the agent does unless asked, hence
   * `rethrow`. Aborted calls are rethrown unless this is a function.
   * @default 'rethrow'
   */
  readonly errorPolicy?: ErrorPolicy;
  /** Per-tool overrides of `errorPolicy`, by tool name. @default {} */
  readonly toolErrorPolicies?: Readonly<Record<string, ErrorPolicy>>;
  /**
   * The text the model sees when a failure is reported; never a stack trace.
   * @default (name, error) => `Tool '${name}' failed: ${message}`
   */
  readonly formatError?: FormatError;
  /**
   * Record `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` on the span (sensitive).
   * @default false, or true when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true
   */
  readonly captureContent?: boolean;
  /**
   * Bound, in characters, on each captured value: a longer one is cut inside, still valid JSON (from 3
   * on), the cut marked with `…`. @default 4096
   */
  readonly maxContentLength?: number;
  /** Applied to arguments and result before they are captured. @default none */
  readonly redact?: Redact;
  /** Sets `gen_ai.agent.name` on spans and metrics. @default none */
  readonly agentName?: string;
  /** Add an exception event to the span for a thrown Error (Jaeger shows it as a log). @default true */
  readonly recordException?: boolean;
  /**
   * Where the exception goes (with `recordException`): `'span-events'`, an `exception` span event;
   * `'logs'`, a `tool_call.exception` log record in the span's context, through `loggerProvider`, and no
   * span event; `'logs/dup'`, both, to move dashboards over before dropping the events. The values of the
   * conventions' `OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN`. See docs/opentelemetry.md, "Exceptions".
   * @default 'span-events', or what OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN says (`logs`, `logs/dup`)
   */
  readonly exceptionSignal?: ExceptionSignal;
  /**
   * A call that starts inside an `execute_tool` span already standing for the same tool call (the
   * same tool observed by two adapters, or by `@ai-sdk/otel` and this package) joins that span:
   * one span and one histogram sample per call. `true` gives the nested call a span (and a
   * sample) of its own, as two operations. See docs/opentelemetry.md, "One span per call".
   * @default false
   */
  readonly keepNestedSpans?: boolean;
  /**
   * Where the log records go: the decision events (docs/opentelemetry.md, "Decisions"), and the
   * exceptions with `exceptionSignal` `'logs'` or `'logs/dup'`.
   * @default the logger provider registered with the Logs API (`@opentelemetry/api` 1.10+, or
   * `@opentelemetry/api-logs`), looked up at each decision; none registered, no record
   */
  readonly loggerProvider?: DecisionLoggerProvider;
  /**
   * Count repeated calls: a call whose tool and arguments (canonical JSON, within `maxContentLength`)
   * equal an earlier call's in its trace gets `tool_call.repeat.count` and a `tool_call.repeats` increment.
   * @default true
   */
  readonly recordRepeatedCalls?: boolean;
  /** Record `tool_call.result.size`, the size of each successful call's result in bytes. @default true */
  readonly recordResultSize?: boolean;
  /**
   * Record decisions (`onDecision`): a decision log record (docs/opentelemetry.md, "Decisions"), and
   * `tool_call.approval.duration` for a wait inside this process. @default true
   */
  readonly recordDecisions?: boolean;
  /** Called after the span starts, before the tool runs (not for a call that joined a span). @default none */
  readonly onSpanStart?: ToolCallSpanHook;
  /** Called just before the span ends (not for a call that joined a span). @default none */
  readonly onSpanEnd?: ToolCallSpanHook;
}
