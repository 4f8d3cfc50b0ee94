import type { Attributes } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  TOOL_CALL_ERROR_SOURCE_VALUE_MODEL,
} from './semconv.js';
import { ATTR_ERROR_TYPE } from './stable-semconv.js';

/** More distinct sets than this (a tool name per call?) are built per call, not kept. */
const MAX_KEPT = 1024;

/**
 * The metric attributes of a call, one frozen object per distinct set, reused: a call then builds
 * no attribute object (the set of tools, error types and outcomes is small). The SDK may keep the
 * object it is given as the series' attributes; it never changes, so sharing it is safe.
 */
type Level = Map<string, Level | Attributes>;

export class MetricAttributes {
  // one level per part: each part is a string the call already holds, whose hash V8 keeps, so a
  // lookup builds nothing (a key made by concatenation would be a new string to hash every call)
  private readonly kept: Level = new Map();
  private size = 0;
  /** The last successful call's set: most calls are of the tool before them, and succeed. */
  private lastSuccess: Attributes | undefined;
  /** `byTool`'s sets, by tool name. */
  private readonly tools = new Map<string, Attributes>();

  constructor(private readonly agentName: string | undefined) {}

  /**
   * `gen_ai.tool.name`, `gen_ai.tool.type`, `gen_ai.agent.name` (when set), `error.type` (failures),
   * and `tool_call.error.source` for a call the framework rejected (the model's error).
   */
  duration(toolName: string, toolType: string, errorType: string | undefined, byModel: boolean): Attributes {
    if (errorType !== undefined) return this.get(toolName, toolType, errorType, undefined, byModel);
    const last = this.lastSuccess;
    if (last !== undefined && last[ATTR_GEN_AI_TOOL_NAME] === toolName && last[ATTR_GEN_AI_TOOL_TYPE] === toolType) {
      return last;
    }
    this.lastSuccess = this.get(toolName, toolType, undefined, undefined);
    return this.lastSuccess;
  }

  /** The histogram's attributes plus `tool_call.error.outcome`, and `tool_call.error.source` for the model's. */
  errors(toolName: string, toolType: string, errorType: string, outcome: string, byModel: boolean): Attributes {
    return this.get(toolName, toolType, errorType, outcome, byModel);
  }

  /** `gen_ai.tool.name`, and `gen_ai.agent.name` when set: the repeats' and the result sizes' attributes. */
  byTool(toolName: string): Attributes {
    const found = this.tools.get(toolName);
    if (found !== undefined) return found;
    const attributes: Attributes = { [ATTR_GEN_AI_TOOL_NAME]: toolName };
    if (this.agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = this.agentName;
    Object.freeze(attributes);
    if (this.tools.size < MAX_KEPT) this.tools.set(toolName, attributes);
    return attributes;
  }

  private get(
    toolName: string,
    toolType: string,
    errorType: string | undefined,
    outcome: string | undefined,
    byModel = false,
  ) {
    const byType = this.level(this.kept, toolName);
    const byError = byType && this.level(byType, toolType);
    const byOutcome = byError && this.level(byError, errorType ?? '');
    if (byOutcome === undefined) return this.build(toolName, toolType, errorType, outcome, byModel);
    // the source is a flag on the outcome's key (a key built per call only for the rare rejected call)
    const last = byModel ? `${outcome ?? ''}\0model` : (outcome ?? '');
    const found = byOutcome.get(last) as Attributes | undefined;
    if (found !== undefined) return found;
    const attributes = this.build(toolName, toolType, errorType, outcome, byModel);
    if (this.size < MAX_KEPT) {
      byOutcome.set(last, attributes);
      this.size++;
    }
    return attributes;
  }

  /** The next level under `part`, made when there is room; undefined once the cache is full. */
  private level(level: Level, part: string): Level | undefined {
    const next = level.get(part) as Level | undefined;
    if (next !== undefined || this.size >= MAX_KEPT) return next;
    const made: Level = new Map();
    level.set(part, made);
    return made;
  }

  private build(
    toolName: string,
    toolType: string,
    errorType: string | undefined,
    outcome: string | undefined,
    byModel: boolean,
  ) {
    const attributes: Attributes = { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_GEN_AI_TOOL_TYPE]: toolType };
    if (this.agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = this.agentName;
    if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
    if (outcome !== undefined) attributes[ATTR_TOOL_CALL_ERROR_OUTCOME] = outcome;
    if (byModel) attributes[ATTR_TOOL_CALL_ERROR_SOURCE] = TOOL_CALL_ERROR_SOURCE_VALUE_MODEL;
    return Object.freeze(attributes);
  }
}
