/** One scripted answer of the model: function calls (their `arguments` the raw text the model wrote), or a text. */
export interface ResponsesReply {
  readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
  readonly content?: string;
}

/** A request the fake API got: its path, headers and JSON body. */
export interface ResponsesRequest {
  readonly path: string;
  readonly headers: Record<string, unknown>;
  readonly body: { input?: unknown; stream?: boolean; [key: string]: unknown };
}

export interface FakeResponsesApi {
  /** What the client is given as `serverURL` (`/api/v1` included). */
  readonly serverURL: string;
  readonly requests: ResponsesRequest[];
  close(): Promise<void>;
}

export function startFakeResponsesApi(
  reply: (request: ResponsesRequest, index: number) => ResponsesReply,
): Promise<FakeResponsesApi>;

/** The `function_call_output` items `request` sent: `{ callId, output }` each, in order. */
export function toolOutputsIn(request: ResponsesRequest | undefined): Array<{ callId: unknown; output: unknown }>;
