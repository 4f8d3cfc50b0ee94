import type { Attributes } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
} from './semconv.js';

/** More distinct sets than this (a tool name per call?) are built per call, not kept. */
const MAX_KEPT = 1024;

/**
 * The metric attributes of a call, one frozen object per distinct set, reused: a call then builds
 * no attribute object (the set of tools, error types and outcomes is small). The SDK may keep the
 * object it is given as the series' attributes; it never changes, so sharing it is safe.
 */
export class MetricAttributes {
  private readonly kept = new Map<string, Attributes>();

  constructor(private readonly agentName: string | undefined) {}

  /** `gen_ai.tool.name`, `gen_ai.tool.type`, `gen_ai.agent.name` (when set), `error.type` (failures). */
  duration(toolName: string, toolType: string, errorType: string | undefined): Attributes {
    return this.get(toolName, toolType, errorType, undefined);
  }

  /** The histogram's attributes plus `tool_call.error.outcome`. */
  errors(toolName: string, toolType: string, errorType: string, outcome: string): Attributes {
    return this.get(toolName, toolType, errorType, outcome);
  }

  private get(toolName: string, toolType: string, errorType: string | undefined, outcome: string | undefined) {
    // the parts are bounded strings; \u0000 keeps 'a'+'bc' apart from 'ab'+'c'
    const key = `${toolName}\u0000${toolType}\u0000${errorType ?? ''}\u0000${outcome ?? ''}`;
    const found = this.kept.get(key);
    if (found !== undefined) return found;
    const attributes: Attributes = { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_GEN_AI_TOOL_TYPE]: toolType };
    if (this.agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = this.agentName;
    if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
    if (outcome !== undefined) attributes[ATTR_TOOL_CALL_ERROR_OUTCOME] = outcome;
    Object.freeze(attributes);
    if (this.kept.size < MAX_KEPT) this.kept.set(key, attributes);
    return attributes;
  }
}
