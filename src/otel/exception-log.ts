import type { Attributes, Context, Exception, HrTime } from '@opentelemetry/api';
import { VERSION } from '../version.js';
import { boundedAttribute, truncate } from './bounded-text.js';
import { type DecisionLoggerProvider, registeredLoggerProvider } from './decision-log.js';
import { ATTR_GEN_AI_TOOL_CALL_ID, ATTR_GEN_AI_TOOL_NAME, EVENT_TOOL_CALL_EXCEPTION } from './semconv.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_STACKTRACE,
  ATTR_EXCEPTION_TYPE,
} from './stable-semconv.js';
import { SCOPE_NAME } from './tool-call-metrics.js';

/**
 * The Logs API's `SeverityNumber.WARN`: a tool's failure is handled by another layer (the model is
 * told, or the agent framework takes it), which the conventions record at WARN or below
 * (exceptions-logs.md, "Severity considerations").
 */
const SEVERITY_WARN = 13;
/** Bounds on what a thrown value gives the record: an error's message and stack are the app's (or a peer's). */
const MAX_MESSAGE_LENGTH = 4096;
const MAX_STACKTRACE_LENGTH = 16_384;

/** What a failed call's exception record says (the listener's state of the call, bounded here). */
export interface ExceptionRecord {
  /** The thrown `Error`, or what stands for it on the span (a rejected call's, without its arguments). */
  readonly exception: Exception;
  readonly errorType: string | undefined;
  readonly toolName: string;
  readonly toolCallId: string | undefined;
  /** The context of the call's span: the record is correlated with it. */
  readonly context: Context;
  /** When it failed, if not now (an attempt's end). */
  readonly time: HrTime | undefined;
}

/**
 * A failed call's exception as a log record (core v1.44.0: exceptions are recorded as logs, the span
 * event is deprecated): event `tool_call.exception`, severity WARN, `exception.type`/`message`/
 * `stacktrace` as the SDK's `recordException` reads them, with the call's tool, call id and
 * `error.type`. Nothing when no logger provider is given or registered. Never throws past a value it
 * cannot read: each field in its own guard.
 */
export function emitException(provider: DecisionLoggerProvider | undefined, record: ExceptionRecord): void {
  const loggerProvider = provider ?? registeredLoggerProvider();
  if (loggerProvider === undefined) return;
  const attributes = exceptionAttributes(record.exception);
  attributes[ATTR_GEN_AI_TOOL_NAME] = record.toolName;
  if (record.toolCallId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = boundedAttribute(record.toolCallId);
  if (record.errorType !== undefined) attributes[ATTR_ERROR_TYPE] = record.errorType;
  loggerProvider.getLogger(SCOPE_NAME, VERSION).emit({
    eventName: EVENT_TOOL_CALL_EXCEPTION,
    severityNumber: SEVERITY_WARN,
    severityText: 'WARN',
    attributes,
    context: record.context,
    ...(record.time === undefined ? {} : { timestamp: record.time }),
  });
}

/** `exception.*` as the SDK's `Span.recordException` writes them: the type from `code`, else `name`. */
function exceptionAttributes(exception: Exception): Attributes {
  const attributes: Attributes = {};
  const { code, name, message, stack } = readFields(exception);
  let type = name;
  try {
    if (code !== undefined && code !== null && code !== '' && code !== 0) type = String(code);
  } catch {
    // a code whose conversion throws: the name stands
  }
  if (typeof type === 'string' && type.length > 0) attributes[ATTR_EXCEPTION_TYPE] = boundedAttribute(type);
  if (typeof message === 'string' && message.length > 0) {
    attributes[ATTR_EXCEPTION_MESSAGE] = truncate(message, MAX_MESSAGE_LENGTH);
  }
  if (typeof stack === 'string' && stack.length > 0) {
    attributes[ATTR_EXCEPTION_STACKTRACE] = truncate(stack, MAX_STACKTRACE_LENGTH);
  }
  return attributes;
}

/** Each field read once, in its own guard: a getter that throws gives that field nothing. */
function readFields(exception: Exception): Record<'code' | 'name' | 'message' | 'stack', unknown> {
  const read = (key: 'code' | 'name' | 'message' | 'stack'): unknown => {
    try {
      return (exception as unknown as Record<string, unknown>)[key];
    } catch {
      return undefined;
    }
  };
  return { code: read('code'), name: read('name'), message: read('message'), stack: read('stack') };
}
