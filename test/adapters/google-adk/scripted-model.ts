import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';

/** One model turn: the function calls it makes (name, args, id), or a text. */
export type Turn = { readonly calls: readonly { name: string; args: Record<string, unknown>; id: string }[] } | string;

/**
 * An ADK model that plays `turns` in order, offline: each `generateContentAsync` yields the next
 * turn's function calls or text (the last one again once the script is done). `requests` keeps
 * what ADK sent, so a test can read the function responses the model got.
 */
export class ScriptedModel extends BaseLlm {
  readonly requests: LlmRequest[] = [];
  private turn = 0;

  constructor(private readonly turns: readonly Turn[]) {
    super({ model: 'scripted' });
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests.push(request);
    const turn = this.turns[Math.min(this.turn++, this.turns.length - 1)] as Turn;
    const parts = typeof turn === 'string' ? [{ text: turn }] : turn.calls.map((functionCall) => ({ functionCall }));
    yield { content: { role: 'model', parts } };
  }

  override async connect(): Promise<BaseLlmConnection> {
    throw new Error('ScriptedModel has no live connection');
  }
}

/** The function responses ADK sent the model in its last request (the run so far), as `{ id, name, response }`. */
export function functionResponses(model: ScriptedModel): unknown[] {
  const last = model.requests.at(-1);
  return (last?.contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .flatMap((part) => (part.functionResponse === undefined ? [] : [part.functionResponse]));
}
