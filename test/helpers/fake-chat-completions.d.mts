/** One scripted answer of the model: tool calls, or a text. */
export interface ChatReply {
  readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
  readonly content?: string;
}

/** A request the fake API got: its path and its JSON body. */
export interface ChatRequest {
  readonly path: string;
  readonly body: { messages: Array<Record<string, unknown>>; stream?: boolean; [key: string]: unknown };
}

export interface FakeChatCompletions {
  /** What the client is given as `baseURL` (`/v1` included). */
  readonly baseURL: string;
  readonly requests: ChatRequest[];
  close(): Promise<void>;
}

export function startFakeChatCompletions(
  reply: (request: ChatRequest, index: number) => ChatReply,
): Promise<FakeChatCompletions>;

/** The tool messages the runner sent in `request`: `{ tool_call_id, content }` each. */
export function toolMessagesIn(request: ChatRequest | undefined): Array<{ tool_call_id: unknown; content: unknown }>;
