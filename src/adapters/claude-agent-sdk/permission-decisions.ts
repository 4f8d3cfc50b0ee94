import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import { tellDecision } from '../../internal/tell-decision.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_CLAUDE_AGENT_SDK } from '../frameworks.js';

/*
 * The Claude Agent SDK's permission decisions as decisions (`ToolCallListener.onDecision`).
 * - The SDK asks the app through `canUseTool` (the permission mode let no rule decide): observed, it
 *   tells `require_approval` when asked, and `allow` or `deny` (`PermissionResult.behavior`) with the
 *   seconds the callback took (the wait for a human, all of it in this process).
 * - A call denied without asking the app (the mode, a rule, a `PreToolUse` hook's `deny`) is seen
 *   by the hooks (`PermissionDenied`, or the batch's end): `deny`, unless `canUseTool` told it.
 * The hooks see the call before its permission is decided, so a denied call keeps the span they
 * opened, ended as `permission_denied` (docs/frameworks/claude-agent-sdk.md).
 */

/** What the hooks know of a call a decision is about. */
export interface DecidedCall {
  readonly toolName: string;
  /** The query's session (`gen_ai.conversation.id`). */
  readonly conversationId: string | undefined;
  /** Set once `allow` or `deny` is told: a denial is told once, however many sides see it. */
  answered: boolean;
}

/**
 * `canUseTool`, telling each question and its answer. `callOf` finds the open call the SDK asks
 * about (by its tool_use id), for its session; the answer is the app's, returned as it is.
 */
export function observedCanUseTool(
  canUseTool: CanUseTool,
  listener: ToolCallListener<unknown>,
  callOf: (toolUseId: string) => DecidedCall | undefined,
): CanUseTool {
  return async function canUseToolObserved(toolName, input, options) {
    const toolCallId = typeof options?.toolUseID === 'string' ? options.toolUseID : undefined;
    const call = toolCallId === undefined ? undefined : callOf(toolCallId);
    const told = { toolName, toolCallId, framework: FRAMEWORK_CLAUDE_AGENT_SDK, conversationId: call?.conversationId };
    tellDecision(listener, { ...told, outcome: 'require_approval' });
    const asked = performance.now();
    const result = await canUseTool(toolName, input, options);
    // null: the app answered out of band (the SDK's contract), an answer this side does not see
    const outcome = (result as { behavior?: unknown } | null)?.behavior;
    if (outcome === 'allow' || outcome === 'deny') {
      if (call !== undefined) call.answered = true;
      tellDecision(listener, { ...told, outcome, waitSeconds: (performance.now() - asked) / 1000 });
    }
    return result;
  };
}

/** `deny` for a call the SDK did not let run, unless its answer was already told. */
export function tellDenied(listener: ToolCallListener<unknown>, call: DecidedCall, toolCallId: string): void {
  if (call.answered) return;
  call.answered = true;
  tellDecision(listener, {
    toolName: call.toolName,
    outcome: 'deny',
    toolCallId,
    framework: FRAMEWORK_CLAUDE_AGENT_SDK,
    conversationId: call.conversationId,
  });
}
