export { OpenTelemetryToolCallListener } from './otel/opentelemetry-tool-call-listener.js';
export {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_SESSION_ID,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  GEN_AI_DURATION_BUCKETS,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_TOOL_TYPE_VALUE_EXTENSION,
  GEN_AI_TOOL_TYPE_VALUE_FUNCTION,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
  TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from './otel/semconv.js';
export type {
  ErrorPolicy,
  ErrorPolicyDecision,
  FormatError,
  OpenTelemetryToolCallListenerOptions,
  Redact,
  RedactContext,
  ToolCallSpanEvent,
  ToolCallSpanHook,
} from './otel/types.js';
export type { ToolCallInfo, ToolCallListener } from './tool-call-listener.js';
export { ToolCallListeners } from './tool-call-listeners.js';
export type { ToolCallback, ToolContext, ToolDefinition, ToolMetadata } from './tool-callback.js';
export { functionToolCallback } from './tool-callback.js';
