import { logger } from '../internal/logger.js';
import { errorMessageOf } from './error-type.js';
import type { ErrorPolicy, ExceptionSignal, FormatError, OpenTelemetryToolCallListenerOptions } from './types.js';

export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
/** The conventions' opt-in for exceptions as log records (core v1.44.0, exceptions-spans.md). */
export const EXCEPTION_SIGNAL_ENV = 'OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN';
const EXCEPTION_SIGNALS: readonly ExceptionSignal[] = ['span-events', 'logs', 'logs/dup'];
const DEFAULT_MAX_CONTENT_LENGTH = 4096;

/**
 * `Tool '{name}' failed: {message}`; a message that already is that text (a remote tool reported by
 * its own server's listener, e.g. MCP with 'report' on both sides) is not prefixed a second time.
 */
export const defaultFormatError: FormatError = (toolName, error) => {
  const prefix = `Tool '${toolName}' failed: `;
  const message = errorMessageOf(error);
  return message.startsWith(prefix) ? message : `${prefix}${message}`;
};

type Resolved = Required<
  Pick<
    OpenTelemetryToolCallListenerOptions,
    | 'errorPolicy'
    | 'toolErrorPolicies'
    | 'formatError'
    | 'captureContent'
    | 'maxContentLength'
    | 'recordException'
    | 'exceptionSignal'
    | 'keepNestedSpans'
    | 'recordRepeatedCalls'
    | 'recordResultSize'
    | 'recordDecisions'
  >
> &
  OpenTelemetryToolCallListenerOptions;

/** Fills the defaults into a shallow copy; an invalid option throws a TypeError naming it. */
export function resolveOptions(options: OpenTelemetryToolCallListenerOptions = {}): Resolved {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('OpenTelemetryToolCallListener: `options` must be an object');
  }
  // only `undefined` takes the default: a `null` is a mistake worth a TypeError
  const resolved: Resolved = {
    ...options,
    errorPolicy: fill(options.errorPolicy, 'rethrow'),
    toolErrorPolicies: fill(options.toolErrorPolicies, {}),
    formatError: fill(options.formatError, defaultFormatError),
    captureContent: options.captureContent === undefined ? captureContentFromEnv() : options.captureContent,
    maxContentLength: fill(options.maxContentLength, DEFAULT_MAX_CONTENT_LENGTH),
    recordException: fill(options.recordException, true),
    exceptionSignal: options.exceptionSignal === undefined ? exceptionSignalFromEnv() : options.exceptionSignal,
    keepNestedSpans: fill(options.keepNestedSpans, false),
    recordRepeatedCalls: fill(options.recordRepeatedCalls, true),
    recordResultSize: fill(options.recordResultSize, true),
    recordDecisions: fill(options.recordDecisions, true),
  };
  assertProvider(resolved.tracerProvider, 'tracerProvider', 'getTracer');
  assertProvider(resolved.meterProvider, 'meterProvider', 'getMeter');
  assertProvider(resolved.loggerProvider, 'loggerProvider', 'getLogger');
  assertErrorPolicy(resolved.errorPolicy, 'errorPolicy');
  const toolErrorPolicies = snapshotToolPolicies(resolved.toolErrorPolicies);
  if (typeof resolved.captureContent !== 'boolean') fail('captureContent', 'a boolean');
  if (typeof resolved.recordException !== 'boolean') fail('recordException', 'a boolean');
  if (!EXCEPTION_SIGNALS.includes(resolved.exceptionSignal))
    fail('exceptionSignal', "'span-events', 'logs' or 'logs/dup'");
  for (const name of ['keepNestedSpans', 'recordRepeatedCalls', 'recordResultSize', 'recordDecisions'] as const) {
    if (typeof resolved[name] !== 'boolean') fail(name, 'a boolean');
  }
  if (!Number.isSafeInteger(resolved.maxContentLength) || resolved.maxContentLength < 1) {
    fail('maxContentLength', 'a positive integer');
  }
  if (resolved.agentName !== undefined && typeof resolved.agentName !== 'string') fail('agentName', 'a string');
  for (const name of ['formatError', 'redact', 'onSpanStart', 'onSpanEnd'] as const) {
    if (resolved[name] !== undefined && typeof resolved[name] !== 'function') fail(name, 'a function');
  }
  return { ...resolved, toolErrorPolicies };
}

/**
 * A frozen, null-prototype copy of `toolErrorPolicies`, each policy read (and validated) once,
 * here: `onError` must not run a getter added to the user's object later, nor see a policy that
 * was never validated. Later changes to the object given are not seen: the policies are fixed at
 * construction, as every other option is.
 */
function snapshotToolPolicies(policies: unknown): Readonly<Record<string, ErrorPolicy>> {
  if (typeof policies !== 'object' || policies === null) {
    throw new TypeError('OpenTelemetryToolCallListener: `toolErrorPolicies` must be an object of tool name to policy');
  }
  let entries: [string, unknown][];
  try {
    entries = Object.entries(policies);
  } catch (error) {
    throw new TypeError('OpenTelemetryToolCallListener: `toolErrorPolicies` could not be read', { cause: error });
  }
  const snapshot: Record<string, ErrorPolicy> = Object.create(null);
  for (const [tool, policy] of entries) {
    assertErrorPolicy(policy, `toolErrorPolicies[${JSON.stringify(tool)}]`);
    snapshot[tool] = policy;
  }
  return Object.freeze(snapshot);
}

/** Only `true`/`false` (any case) are understood; anything else is ignored with a warning. */
export function captureContentFromEnv(): boolean {
  const raw = globalThis.process?.env?.[CAPTURE_CONTENT_ENV];
  if (raw === undefined || raw.trim() === '') return false;
  const value = raw.trim().toLowerCase();
  if (value === 'true') return true;
  if (value !== 'false') logger.warn(`${CAPTURE_CONTENT_ENV}=${JSON.stringify(raw)} ignored: expected true or false`);
  return false;
}

/**
 * `OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN`, a comma-separated list as the conventions' opt-ins are:
 * `logs/dup` (both) wins over `logs`; neither, the span events, with a warning for a value not understood.
 */
export function exceptionSignalFromEnv(): ExceptionSignal {
  const raw = globalThis.process?.env?.[EXCEPTION_SIGNAL_ENV];
  if (raw === undefined || raw.trim() === '') return 'span-events';
  const values = raw.split(',').map((value) => value.trim().toLowerCase());
  if (values.includes('logs/dup')) return 'logs/dup';
  if (values.includes('logs')) return 'logs';
  logger.warn(`${EXCEPTION_SIGNAL_ENV}=${JSON.stringify(raw)} ignored: expected logs or logs/dup`);
  return 'span-events';
}

function fill<T>(value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : value;
}

function assertErrorPolicy(policy: unknown, name: string): asserts policy is ErrorPolicy {
  if (policy !== 'report' && policy !== 'rethrow' && typeof policy !== 'function') {
    fail(name, "'report', 'rethrow' or a function (error, call) => 'report' | 'rethrow'");
  }
}

function assertProvider(provider: unknown, name: string, method: string) {
  if (provider === undefined) return;
  if (provider === null || typeof (provider as Record<string, unknown>)[method] !== 'function') {
    fail(name, `an object with a ${method}() method`);
  }
}

function fail(name: string, expected: string): never {
  throw new TypeError(`OpenTelemetryToolCallListener: \`${name}\` must be ${expected}`);
}
