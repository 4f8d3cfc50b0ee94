import { logger } from '../../internal/logger.js';
import { tellDecision } from '../../internal/tell-decision.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_PI_AGENT_CORE } from '../frameworks.js';
import { agentToolShapeOf, hasToolNamed, type ToolFunction } from './agent-tool.js';
import { observeBadCall } from './bad-calls.js';
import { isObservedShape, observedTool } from './observed-tool.js';

/*
 * One run of pi's agent loop (`runAgentLoop`, `agentLoop` and their `…Continue`; each `prompt()` and
 * `continue()` of an `Agent`), as this package observes it. For each call the model makes, the loop
 * (agent-loop.js) emits `tool_execution_start`, finds the tool by name, validates the arguments,
 * awaits the config's `beforeToolCall` (which may block the call), awaits `tool.execute`, then emits
 * `tool_execution_end`. The run observed has:
 * - its tools: a stand-in for each (observed-tool.ts): the calls that run, one span each;
 * - a `beforeToolCall` of its own, in the run's config, that runs the app's hook as given (its result,
 *   its error, `this` the app's config) and notes each call that reached it: the arguments passed. A
 *   block is a `deny` decision (`tellDecision`), and the call gets no span;
 * - its events: a call that ends in error without having reached `beforeToolCall` is one the loop
 *   answered itself, the model's mistake (bad-calls.ts).
 * The conversation id is the run's `sessionId` (the Agent's), never made up.
 */

/** What the adapter knows of a run as it starts. */
export interface RunStart {
  /** The run's tools, as the loop would get them. */
  readonly tools: unknown;
  /** The app's `beforeToolCall` in the run's config, if any. */
  readonly beforeToolCall: unknown;
  /** `this` of the app's hook, as the loop calls it: the config. */
  readonly config: unknown;
  /** The config's `sessionId`. */
  readonly sessionId: unknown;
}

/** The run, observed: what the loop gets in place of the app's, and where its events go. */
export interface ObservedRun {
  /** The tools, each the loop would run replaced by its stand-in (the same list when there is none). */
  readonly tools: unknown;
  /** For the run's config, whether or not the app has a hook of its own. */
  readonly beforeToolCall: ToolFunction;
  /** Sees each event of the run; never throws. */
  onEvent(event: unknown): void;
}

interface HookContext {
  readonly toolCall?: { readonly id?: unknown; readonly name?: unknown };
}

interface ToolEvent {
  readonly type?: unknown;
  readonly toolCallId?: unknown;
  readonly toolName?: unknown;
  readonly args?: unknown;
  readonly isError?: unknown;
  readonly result?: unknown;
}

export function observeRun(listener: ToolCallListener<unknown>, start: RunStart): ObservedRun {
  const conversationId =
    typeof start.sessionId === 'string' && start.sessionId.length > 0 ? start.sessionId : undefined;
  const currentConversation = () => conversationId;
  /** The calls whose arguments passed: they reached `beforeToolCall`. */
  const passed = new Set<unknown>();
  /** The model's arguments of each call started and not ended yet. */
  const argumentsOf = new Map<unknown, unknown>();
  const appHook = start.beforeToolCall;

  const tools = Array.isArray(start.tools)
    ? start.tools.map((tool) => {
        const shape = agentToolShapeOf(tool);
        if (shape === undefined || isObservedShape(shape)) return tool;
        return observedTool(tool as object, shape, listener, currentConversation);
      })
    : start.tools;

  const beforeToolCall = async function beforeToolCall(this: unknown, ...args: unknown[]): Promise<unknown> {
    const toolCall = toolCallOf(args[0]);
    passed.add(toolCall?.id);
    if (typeof appHook !== 'function') return undefined;
    const decided = await Reflect.apply(appHook, start.config, args);
    if (blocks(decided)) {
      tellDecision(listener, {
        toolName: typeof toolCall?.name === 'string' ? toolCall.name : '',
        outcome: 'deny',
        toolCallId: typeof toolCall?.id === 'string' ? toolCall.id : undefined,
        framework: FRAMEWORK_PI_AGENT_CORE,
        conversationId,
      });
    }
    return decided;
  };

  const onEvent = (event: unknown): void => {
    try {
      const { type, toolCallId } = (event ?? {}) as ToolEvent;
      if (type === 'tool_execution_start') {
        argumentsOf.set(toolCallId, (event as ToolEvent).args);
        return;
      }
      if (type !== 'tool_execution_end') return;
      const input = argumentsOf.get(toolCallId);
      argumentsOf.delete(toolCallId);
      // it ran, or the app's hook blocked it: not the model's doing
      if (passed.delete(toolCallId)) return;
      const { toolName, isError, result } = event as ToolEvent;
      if (isError !== true || typeof toolName !== 'string') return;
      observeBadCall(listener, {
        toolName,
        toolCallId: typeof toolCallId === 'string' ? toolCallId : undefined,
        input,
        known: hasToolNamed(start.tools, toolName),
        result,
        conversationId,
      });
    } catch (error) {
      logger.error('a call pi answered itself could not be observed', error);
    }
  };

  return { tools, beforeToolCall, onEvent };
}

function toolCallOf(hookContext: unknown): HookContext['toolCall'] | undefined {
  try {
    const toolCall = (hookContext as HookContext | null | undefined)?.toolCall;
    return toolCall !== null && typeof toolCall === 'object' ? toolCall : undefined;
  } catch {
    return undefined;
  }
}

function blocks(decided: unknown): boolean {
  try {
    // as the loop reads it: `beforeResult?.block`
    return Boolean((decided as { block?: unknown } | null | undefined)?.block);
  } catch {
    return false;
  }
}
