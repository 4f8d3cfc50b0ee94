import type { AgentsSdk } from './observe-sdk-failure.js';

/**
 * The conversation a tool call belongs to, as the OpenAI Agents SDK names it where a tool can read it:
 * the run's trace group (`RunConfig.groupId`, which the SDK documents as linking the traces of one
 * conversation). The `conversationId` of a server-managed conversation stays in the run's state,
 * which nothing hands a tool: not read. Never invented: none without a trace or a group.
 */
export function conversationIdOf(agents: AgentsSdk): string | undefined {
  try {
    const group = (agents.getCurrentTrace?.() as { groupId?: unknown } | null | undefined)?.groupId;
    return typeof group === 'string' && group.length > 0 ? group : undefined;
  } catch {
    // a trace of another shape: no conversation
    return undefined;
  }
}
