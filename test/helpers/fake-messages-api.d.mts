/** A content block of a reply: text, or a tool call. */
export type ReplyBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown };

/** What the fake API answers to one request: its content, and why it stopped. */
export interface Reply {
  readonly content: readonly ReplyBlock[];
  readonly stop_reason?: 'end_turn' | 'tool_use';
}

/** A request the fake API got: its path and its JSON body. */
export interface ReceivedRequest {
  readonly path: string;
  readonly body: Record<string, unknown> & { messages?: unknown[]; stream?: boolean };
}

export interface FakeMessagesApi {
  readonly baseURL: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A fake Anthropic Messages API on 127.0.0.1: `POST /v1/messages` answers with what `reply` makes of
 * the request, as JSON, or as the API's server-sent events when the request asks for `stream`.
 * Any other path gets an empty 200 (the Claude Code CLI asks a few of its own at start).
 */
export function startFakeMessagesApi(
  reply: (request: ReceivedRequest, index: number) => Reply,
): Promise<FakeMessagesApi>;
