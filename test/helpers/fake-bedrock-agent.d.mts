/** One event of a `completion` stream: a text chunk, or a return of control. */
export type AgentEvent =
  | { readonly chunk: { readonly text: string } }
  | { readonly returnControl: { readonly invocationId: string; readonly invocationInputs: readonly unknown[] } };

/** A request the fake got: which command, its session and its JSON body. */
export interface AgentRequest {
  readonly kind: 'InvokeAgent' | 'InvokeInlineAgent';
  readonly sessionId: string;
  readonly body: Record<string, unknown>;
}

export interface FakeBedrockAgent {
  /** What the client is given as `endpoint`. */
  readonly endpoint: string;
  readonly requests: AgentRequest[];
  close(): Promise<void>;
}

export function startFakeBedrockAgent(
  reply: (request: AgentRequest, index: number) => readonly AgentEvent[],
): Promise<FakeBedrockAgent>;

/** The results `request` sent back for a return of control (`sessionState` or `inlineSessionState`). */
export function returnedResults(request: AgentRequest | undefined): { invocationId: unknown; results: unknown[] };
