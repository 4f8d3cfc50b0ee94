import type { ForeignToolSpan, ToolCallCorrelation, ToolCallInfo } from '../tool-call-listener.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../tool-callback.js';

/**
 * What a listener is told about one call: the tool's definition and metadata, and the fields of
 * `toolContext` it knows (`toolCallId`, `signal`, `framework`, `attributes`, `remote`, `rejection`,
 * `correlation`, `foreignSpan`, `conversationId`), each checked for its type.
 */
export function callInfo(
  toolDefinition: ToolDefinition,
  toolMetadata: ToolMetadata,
  toolContext: ToolContext | undefined,
): ToolCallInfo {
  if (toolContext === undefined || toolContext === null) return { toolDefinition, toolMetadata };
  let toolCallId: unknown;
  let signal: unknown;
  let framework: unknown;
  let attributes: unknown;
  let remote: unknown;
  let rejection: unknown;
  let correlation: unknown;
  let foreignSpan: unknown;
  let conversationId: unknown;
  try {
    ({ toolCallId, signal, framework, attributes, remote, rejection, correlation, foreignSpan, conversationId } =
      toolContext);
  } catch {
    // a toolContext whose getters throw is the caller's to pass on: the tool runs as it would unwrapped
    return { toolDefinition, toolMetadata };
  }
  return {
    toolDefinition,
    toolMetadata,
    toolCallId: typeof toolCallId === 'string' ? toolCallId : undefined,
    signal: signal instanceof AbortSignal ? signal : undefined,
    framework: typeof framework === 'string' ? framework : undefined,
    attributes:
      attributes !== null && typeof attributes === 'object' ? (attributes as ToolCallInfo['attributes']) : undefined,
    remote: remote !== null && typeof remote === 'object' ? (remote as ToolCallInfo['remote']) : undefined,
    rejection: rejection === 'invalid_input' || rejection === 'unknown_tool' ? rejection : undefined,
    correlation: isCorrelation(correlation) ? correlation : undefined,
    foreignSpan: isForeignSpan(foreignSpan) ? foreignSpan : undefined,
    conversationId: typeof conversationId === 'string' && conversationId.length > 0 ? conversationId : undefined,
  };
}

function isCorrelation(value: unknown): value is ToolCallCorrelation {
  if (value === null || typeof value !== 'object') return false;
  const { key, role } = value as Partial<ToolCallCorrelation>;
  return typeof key === 'string' && key.length > 0 && (role === 'outer' || role === 'inner');
}

function isForeignSpan(value: unknown): value is ForeignToolSpan {
  if (value === null || typeof value !== 'object') return false;
  const { name, scope } = value as Partial<ForeignToolSpan>;
  return typeof name === 'string' && (scope === undefined || typeof scope === 'string');
}
