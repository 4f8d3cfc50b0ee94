import { onResponses, responseWaitersOf } from './protocol-seam.js';

/*
 * The 1.x SDK raises its own failures as JSON-RPC errors: the connection closed under a request
 * (`McpError` -32000, "Connection closed") and a request that timed out or was aborted (-32001). A
 * peer may answer with the same codes (-32000 to -32099 are the JSON-RPC range for servers' own
 * errors: a gateway whose upstream is gone), and 1.x makes the same `McpError` of that answer. Only
 * where the error was made tells them apart: a peer's answer is made in the protocol's
 * `_onresponse`, from the response, and handed to the request's handler there. So `_onresponse` of
 * an instrumented client or server (the instance's, or under zero-code the Client class's) notes the
 * error its handler is handed for an answer with one of these codes as the peer's.
 *
 * 2.x raises its own failures as `SdkError`s with string codes (`CONNECTION_CLOSED`,
 * `REQUEST_TIMEOUT`), and only a peer's answer as a `ProtocolError` with a numeric code: there the
 * class says it.
 */

/** The codes the 1.x SDK raises itself, by the name 2.x gives the same failure (`SdkErrorCode`). */
const SDK_OWN_CODES: ReadonlyMap<number, string> = new Map([
  [-32000, 'CONNECTION_CLOSED'],
  [-32001, 'REQUEST_TIMEOUT'],
]);

const peerAnswers = new WeakSet<object>();
const noting = new WeakSet<object>();

type OnResponse = (this: unknown, response: unknown, ...rest: unknown[]) => unknown;

/**
 * The `error.type` of an error the 1.x SDK raised itself (2.x's name for it), or `undefined` for
 * a peer's answer, a 2.x error, or any other code.
 */
export function sdkOwnErrorType(error: object, code: number): string | undefined {
  const own = SDK_OWN_CODES.get(code);
  if (own === undefined || peerAnswers.has(error)) return undefined;
  try {
    return (error as { name?: unknown }).name === 'McpError' ? own : undefined;
  } catch {
    return undefined;
  }
}

/** `_onresponse` of `protocol` (a 1.x Client or low-level Server), replaced on the instance, notes the peer's answers. */
export function notePeerAnswers(protocol: unknown): void {
  if (protocol === null || typeof protocol !== 'object') return;
  try {
    onResponses(protocol, (original) => (noting.has(original) ? original : onresponseNotingPeerAnswers(original)));
  } catch {
    // a protocol of another shape: its errors are told apart by their codes alone, as before
  }
}

/** `original` (`_onresponse`), noting the error handed to the request's handler for a peer's answer. */
export function onresponseNotingPeerAnswers(original: OnResponse): OnResponse {
  const noted = function onresponseNoted(this: unknown, response: unknown, ...rest: unknown[]) {
    noteAnswerOf(this, response);
    return original.call(this, response, ...rest);
  };
  noting.add(noted);
  return noted;
}

/**
 * For an error answer with one of the SDK's own codes: the handler waiting for it (in
 * `_responseHandlers`, or 1.x's `_requestResolvers` of queued requests, both keyed by the numeric id)
 * is wrapped, once, to note what it is handed.
 */
function noteAnswerOf(protocol: unknown, response: unknown): void {
  try {
    const answer = response as { id?: unknown; error?: { code?: unknown } | null } | null;
    const code = answer?.error?.code;
    if (typeof code !== 'number' || !SDK_OWN_CODES.has(code)) return;
    const id = Number(answer?.id);
    for (const waiting of responseWaitersOf(protocol)) {
      const handler = waiting.get(id);
      if (typeof handler !== 'function') continue;
      waiting.set(id, function peerAnswerNoted(this: unknown, handed: unknown) {
        if (handed !== null && typeof handed === 'object') peerAnswers.add(handed);
        return handler.call(this, handed);
      });
    }
  } catch {
    // a response or protocol of another shape: the error is told by its code alone
  }
}
