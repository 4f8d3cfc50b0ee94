import { type Attributes, context, type HrTime } from '@opentelemetry/api';
import { VERSION } from '../version.js';
import { boundedAttribute } from './bounded-text.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  EVENT_GEN_AI_TOOL_CALL_DECISION,
} from './semconv.js';
import { SCOPE_NAME } from './tool-call-metrics.js';

/** The part of a Logs API logger provider this package uses (`@opentelemetry/api` 1.10+, or `api-logs`). */
export interface DecisionLoggerProvider {
  getLogger(name: string, version?: string): { emit(record: DecisionLogRecord): void };
}

/** A log record as this package emits it (the Logs API's `LogRecord`, the fields it sets). */
export interface DecisionLogRecord {
  readonly eventName: string;
  readonly attributes: Attributes;
  readonly context: ReturnType<typeof context.active>;
  /** The Logs API's `SeverityNumber` (13 is WARN). */
  readonly severityNumber?: number;
  readonly severityText?: string;
  readonly timestamp?: HrTime;
}

/** Where `@opentelemetry/api` keeps what is registered; from 1.10 on, its logger provider under `logs`. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');
/** Where `@opentelemetry/api-logs` (the Logs API before `@opentelemetry/api` 1.10) keeps its provider's getter. */
const API_LOGS_GLOBAL = Symbol.for('io.opentelemetry.js.api.logs');
/** The getter's compatibility version in `@opentelemetry/api-logs`. */
const API_LOGS_COMPATIBILITY_VERSION = 1;

/**
 * The logger provider an SDK registered, read where each Logs API keeps it: no Logs API package is
 * loaded, so `@opentelemetry/api-logs` is never required, and a provider registered through either
 * API (NodeSDK on either line, `otel-tool-calls/register`) is found. Undefined while none is.
 */
export function registeredLoggerProvider(): DecisionLoggerProvider | undefined {
  const global = globalThis as Record<symbol, unknown>;
  const api = global[API_GLOBAL] as { logs?: unknown } | undefined;
  if (isLoggerProvider(api?.logs)) return api.logs;
  const getter = global[API_LOGS_GLOBAL];
  if (typeof getter !== 'function') return undefined;
  const provider: unknown = getter(API_LOGS_COMPATIBILITY_VERSION);
  return isLoggerProvider(provider) ? provider : undefined;
}

/** What a decision's log record says (the listener's `onDecision`, bounded). */
export interface DecisionRecord {
  readonly toolName: string;
  readonly outcome: string;
  readonly toolCallId: string | undefined;
  readonly conversationId: string | undefined;
}

/**
 * The decision event (`EVENT_GEN_AI_TOOL_CALL_DECISION`), as a log record in the active context (correlated with the
 * active span). Nothing when no logger provider is given or registered.
 */
export function emitDecision(provider: DecisionLoggerProvider | undefined, decision: DecisionRecord): void {
  const loggerProvider = provider ?? registeredLoggerProvider();
  if (loggerProvider === undefined) return;
  const attributes: Attributes = {
    [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: decision.outcome,
    [ATTR_GEN_AI_TOOL_NAME]: decision.toolName,
  };
  if (decision.toolCallId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = boundedAttribute(decision.toolCallId);
  if (decision.conversationId !== undefined) {
    attributes[ATTR_GEN_AI_CONVERSATION_ID] = boundedAttribute(decision.conversationId);
  }
  loggerProvider
    .getLogger(SCOPE_NAME, VERSION)
    .emit({ eventName: EVENT_GEN_AI_TOOL_CALL_DECISION, attributes, context: context.active() });
}

function isLoggerProvider(value: unknown): value is DecisionLoggerProvider {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Partial<DecisionLoggerProvider>).getLogger === 'function'
  );
}
