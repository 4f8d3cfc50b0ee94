import type {
  ChatMessage,
  ChatResponseChunk,
  LLMChatParamsStreaming,
  ToolCallLLMMessageOptions,
} from '@llamaindex/core/llms';

/** One tool call the scripted model makes: LlamaIndex's `ToolCall` (`id` is the model's call id). */
export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/**
 * A LlamaIndex LLM that supports tool calls (as `agent()` requires) and follows a script: its first
 * turn calls the given tools, every later turn answers with the tool results it was handed, joined by
 * ` | ` (`error:` before a result the agent marked as an error). What the model saw is the run's result.
 */
export class ScriptedToolCallLLM {
  readonly supportToolCall = true;
  readonly metadata = { model: 'scripted', temperature: 0, topP: 1, contextWindow: 4096, tokenizer: undefined };
  private turn = 0;

  constructor(private readonly toolCalls: readonly ScriptedToolCall[]) {}

  async chat(params: LLMChatParamsStreaming): Promise<AsyncIterable<ChatResponseChunk<ToolCallLLMMessageOptions>>> {
    if (!params.stream) throw new Error('the scripted LLM only streams, as FunctionAgent asks');
    const chunk: ChatResponseChunk<ToolCallLLMMessageOptions> =
      this.turn++ === 0
        ? { delta: '', raw: null, options: { toolCall: this.toolCalls.map((call) => ({ ...call })) } }
        : { delta: answerFrom(params.messages), raw: null };
    return (async function* () {
      yield chunk;
    })();
  }

  async complete(): Promise<never> {
    throw new Error('not scripted');
  }

  async exec(): Promise<never> {
    throw new Error('not scripted');
  }
}

function answerFrom(messages: readonly ChatMessage<ToolCallLLMMessageOptions>[]): string {
  return messages
    .flatMap((message) => {
      const result = message.options && 'toolResult' in message.options ? message.options.toolResult : undefined;
      return result === undefined ? [] : [`${result.isError ? 'error:' : ''}${String(result.result)}`];
    })
    .join(' | ');
}
