/** Where the Claude Code CLI puts the model's tool_use id in a `tools/call` to an SDK MCP server. */
const CLAUDE_TOOL_USE_ID = 'claudecode/toolUseId';

import type { ToolCallCorrelation } from '../../tool-call-listener.js';

/** At most this long: a tool_use id is ~30 characters; a longer value is not one. */
const MAX_ID_LENGTH = 256;

/**
 * The model's tool_use id the Claude Agent SDK's CLI sends with a `tools/call` (`_meta`), when the
 * request has one: the call id of the server call (gen_ai.tool.call.id), and what links it to the
 * hooks' call of the same tool (claudeToolUseCorrelation). Read defensively: `_meta` comes from the peer.
 */
export function claudeToolUseId(meta: unknown): string | undefined {
  return readId(meta);
}

/**
 * The server call as the inner observer of the Claude Agent SDK hooks' call with the same tool_use
 * id (`toolCallHooks` opens it as the outer one): the listener records the two as one call.
 */
export function claudeToolUseCorrelation(id: string | undefined): ToolCallCorrelation | undefined {
  return id === undefined ? undefined : { key: id, role: 'inner' };
}

function readId(meta: unknown): string | undefined {
  if (meta === null || typeof meta !== 'object') return undefined;
  try {
    const id = (meta as Record<string, unknown>)[CLAUDE_TOOL_USE_ID];
    return typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_LENGTH ? id : undefined;
  } catch {
    return undefined;
  }
}
