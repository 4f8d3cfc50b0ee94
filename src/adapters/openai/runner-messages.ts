/*
 * What a runner shows of its tool calls: `runner.messages` (public), the conversation so far, whose
 * last assistant message holds the `tool_calls` being run (the runner adds the tool results only
 * after them), and its `'message'` event, emitted as each message is added. A tool function is handed
 * the runner, so the adapter reads the model's call id there.
 */

interface FunctionToolCall {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly function?: { readonly name?: unknown; readonly arguments?: unknown };
}

interface Message {
  readonly role?: unknown;
  readonly tool_calls?: unknown;
}

/** The tool calls a run gave an id to already: identical calls get one each. */
const claimed = new WeakSet<object>();

/** The runner's `messages`, or none when it has none of that shape. */
export function messagesOf(runner: unknown): readonly unknown[] {
  try {
    const messages = (runner as { messages?: unknown } | null | undefined)?.messages;
    return Array.isArray(messages) ? messages : [];
  } catch {
    return [];
  }
}

/** The function tool calls of the runner's last assistant message. */
function currentToolCalls(runner: unknown): readonly FunctionToolCall[] {
  const messages = messagesOf(runner);
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message | null;
    if (message?.role !== 'assistant') continue;
    return Array.isArray(message.tool_calls) ? (message.tool_calls as FunctionToolCall[]) : [];
  }
  return [];
}

/**
 * The id of the model's call of `name` the runner is running now: the first call of that name (and,
 * when known, those raw arguments) in its last assistant message that no call claimed yet.
 */
export function claimToolCallId(runner: unknown, name: string, rawArguments: string | undefined): string | undefined {
  try {
    for (const call of currentToolCalls(runner)) {
      if (call === null || typeof call !== 'object' || claimed.has(call)) continue;
      if (call.function?.name !== name) continue;
      if (rawArguments !== undefined && call.function?.arguments !== rawArguments) continue;
      if (typeof call.id !== 'string') return undefined;
      claimed.add(call);
      return call.id;
    }
  } catch {
    // messages of another shape: the call has no id
  }
  return undefined;
}

/** The model's call `toolCallId` answers, in the runner's conversation: its name and raw arguments. */
export function toolCallById(
  runner: unknown,
  toolCallId: unknown,
): { name: string; rawArguments: unknown } | undefined {
  const messages = messagesOf(runner);
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message | null;
    if (message?.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls as FunctionToolCall[]) {
      if (call?.id === toolCallId && typeof call.function?.name === 'string') {
        return { name: call.function.name, rawArguments: call.function.arguments };
      }
    }
  }
  return undefined;
}
