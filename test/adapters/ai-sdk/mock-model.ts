import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/**
 * A scripted model for a two-step agent loop: the first response calls one tool, the second
 * answers with text. `doGenerateCalls`/`doStreamCalls` keep every prompt the model was given, so a
 * test can read what the tool result sent back to the model was.
 */
export interface ScriptedToolCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly toolCallId: string;
  /** The arguments text as the model sends it, when it is not `JSON.stringify(input)` (malformed JSON). */
  readonly rawInput?: string;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** `calls` may hold several tool calls: the AI SDK then runs them concurrently in one step. */
export function toolCallThenText(
  calls: ScriptedToolCall | readonly ScriptedToolCall[],
  text = 'done',
): MockLanguageModelV3 {
  const toolCalls = (Array.isArray(calls) ? calls : [calls]).map((call: ScriptedToolCall) => ({
    type: 'tool-call' as const,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.rawInput ?? JSON.stringify(call.input),
  }));
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: toolCalls,
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
    doStream: [
      {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            ...toolCalls,
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
          ],
        }),
      },
      {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't1' },
            { type: 'text-delta', id: 't1', delta: text },
            { type: 'text-end', id: 't1' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      },
    ],
  });
}

/** The tool-result parts of a prompt the model received. */
export function toolResultsInPrompt(prompt: readonly { role: string; content: unknown }[]): unknown[] {
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as unknown[])
    .filter((part) => (part as { type?: string }).type === 'tool-result');
}
