import type { Attributes } from '@opentelemetry/api';
import type { ToolCallInfo } from '../tool-call-listener.js';
import { boundedAttribute, boundedValue, MAX_DESCRIPTION_LENGTH } from './bounded-text.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from './semconv.js';

/*
 * The in-process call's span by the GenAI conventions: its name, `execute_tool {tool}`, built here
 * alone (the listener's span, span-shape.ts, a foreign span known by that name, an adapter naming
 * its framework's span), and its attributes at start.
 */

// the last one kept, as a tool is usually called again (no string built per call)
let last = { toolName: '', spanName: '' };

/** `execute_tool {tool}`. */
export function executeToolSpanName(toolName: string): string {
  if (toolName !== last.toolName)
    last = { toolName, spanName: `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${toolName}` };
  return last.spanName;
}

/**
 * The attributes of the call's span at its start (GenAI semantic conventions, `execute_tool`);
 * `extra`, the adapter's attributes, bounded (bounded-text.ts).
 */
export function executeToolAttributes(
  name: string,
  call: ToolCallInfo,
  toolType: string,
  extra: Attributes | undefined,
  agentName: string | undefined,
): Attributes {
  // one literal for the usual call (no adapter attributes): its properties in one shape
  let attributes: Attributes;
  if (extra === undefined) {
    attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: name,
      [ATTR_GEN_AI_TOOL_TYPE]: toolType,
    };
  } else {
    // Object.assign, not a spread: docs/decisions.md, "Span attributes copied by Object.assign"
    attributes = Object.assign({}, extra);
    attributes[ATTR_GEN_AI_OPERATION_NAME] = GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
    attributes[ATTR_GEN_AI_TOOL_NAME] = name;
    attributes[ATTR_GEN_AI_TOOL_TYPE] = toolType;
  }
  if (call.toolCallId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = call.toolCallId;
  const description = descriptionOf(call);
  if (description !== undefined) attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = description;
  if (agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = agentName;
  if (call.conversationId !== undefined)
    attributes[ATTR_GEN_AI_CONVERSATION_ID] = boundedAttribute(call.conversationId);
  return attributes;
}

/** `gen_ai.tool.description`: the app's (or a peer's) text, bounded; a getter that throws gives none. */
function descriptionOf(call: ToolCallInfo): string | undefined {
  let description: unknown;
  try {
    description = call.toolDefinition?.description;
  } catch {
    return undefined;
  }
  return typeof description === 'string' && description.length > 0
    ? (boundedValue(description, MAX_DESCRIPTION_LENGTH) as string)
    : undefined;
}
