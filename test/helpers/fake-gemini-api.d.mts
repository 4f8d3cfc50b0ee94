/** One scripted answer of the model: its parts (`{ text }`, `{ functionCall: { id?, name, args } }`). */
export interface GeminiReply {
  readonly parts: ReadonlyArray<Record<string, unknown>>;
}

/** A request the fake API got: its path and its JSON body. */
export interface GeminiRequest {
  readonly path: string;
  readonly body: { contents: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>; [key: string]: unknown };
}

export interface FakeGeminiApi {
  /** What `httpOptions.baseUrl` is given. */
  readonly baseUrl: string;
  readonly requests: GeminiRequest[];
  close(): Promise<void>;
}

export function startFakeGeminiApi(
  reply: (request: GeminiRequest, index: number) => GeminiReply,
): Promise<FakeGeminiApi>;

/** The `functionResponse` parts the SDK sent in `request`. */
export function functionResponsesIn(request: GeminiRequest | undefined): unknown[];
