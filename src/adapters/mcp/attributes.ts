import {
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_SESSION_ID,
  GEN_AI_TOOL_TYPE_VALUE_EXTENSION,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
} from '../../otel/semconv.js';

/** The span attributes MCP adds to every tool call (OpenTelemetry MCP semantic conventions). */
export function mcpAttributes(sessionId: unknown): Readonly<Record<string, string>> {
  const attributes: Record<string, string> = {
    [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_VALUE_EXTENSION,
    [ATTR_MCP_METHOD_NAME]: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
  };
  if (typeof sessionId === 'string' && sessionId.length > 0) attributes[ATTR_MCP_SESSION_ID] = sessionId;
  return attributes;
}
