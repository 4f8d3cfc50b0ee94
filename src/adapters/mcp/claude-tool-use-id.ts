/** Where the Claude Code CLI puts the model's tool_use id in a `tools/call` to an SDK MCP server. */
const CLAUDE_TOOL_USE_ID = 'claudecode/toolUseId';

/** At most this long: a tool_use id is ~30 characters; a longer value is not one. */
const MAX_ID_LENGTH = 256;

/**
 * The model's tool_use id the Claude Agent SDK's CLI sends with a `tools/call` (`_meta`), when the
 * request has one: the call id of the server call (gen_ai.tool.call.id), and what links it to the
 * hooks' call of the same tool (outer-tool-call.ts). Read defensively: `_meta` comes from the peer.
 */
export function claudeToolUseId(meta: unknown): string | undefined {
  if (meta === null || typeof meta !== 'object') return undefined;
  try {
    const id = (meta as Record<string, unknown>)[CLAUDE_TOOL_USE_ID];
    return typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_LENGTH ? id : undefined;
  } catch {
    return undefined;
  }
}
