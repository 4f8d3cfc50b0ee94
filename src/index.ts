/**
 * `otel-tool-calls`: the listener API and the OpenTelemetry listener. The attribute and metric
 * names are in `otel-tool-calls/semconv`; each framework's adapter has a subpath of its own.
 *
 * @module
 */
export { OpenTelemetryToolCallListener } from './otel/opentelemetry-tool-call-listener.js';
export type {
  ErrorPolicy,
  ErrorPolicyDecision,
  ExceptionSignal,
  FormatError,
  OpenTelemetryToolCallListenerOptions,
  Redact,
  RedactContext,
  ToolCallSpanEvent,
  ToolCallSpanHook,
} from './otel/types.js';
export type { RemoteCallError, RemoteCallInfo, RemoteCallProtocol } from './remote-call.js';
export type {
  FailureOutcome,
  ForeignToolSpan,
  ToolCallCorrelation,
  ToolCallDecision,
  ToolCallDecisionOutcome,
  ToolCallInfo,
  ToolCallListener,
  ToolCallRejection,
} from './tool-call-listener.js';
export { type ListenedOutput, ToolCallListeners } from './tool-call-listeners.js';
export type { ToolCallback, ToolContext, ToolDefinition, ToolMetadata } from './tool-callback.js';
export { functionToolCallback } from './tool-callback.js';
export { ToolResultError } from './tool-result-error.js';
