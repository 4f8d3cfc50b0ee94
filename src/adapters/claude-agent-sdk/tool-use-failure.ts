import { ERROR_TYPE_VALUE_TOOL_ERROR } from '../../otel/semconv.js';

/** Why a tool call the hooks saw start did not succeed, as the SDK tells it. */
export type ToolUseFailureKind = 'tool_error' | 'interrupted' | 'permission_denied' | 'session_ended';

/**
 * What a listener receives for a tool call of the Claude Agent SDK that failed: the SDK hands the
 * hooks its failure as text (`PostToolUseFailure`'s `error`, `PermissionDenied`'s `reason`), never
 * the thrown value, which stays in the CLI's process. Its `code` (the span's and the metrics'
 * `error.type`) says which: `tool_error`, `interrupted`, `permission_denied` (the SDK did not let
 * the call run: `PermissionDenied`, or a call `PostToolBatch` lists that no Post hook ended), or
 * `session_ended` (the session or the query ended with the call still open).
 */
export class ToolUseFailure extends Error {
  override readonly name = 'ToolUseFailure';

  constructor(
    message: string,
    readonly code: ToolUseFailureKind = ERROR_TYPE_VALUE_TOOL_ERROR,
  ) {
    super(message);
  }
}
