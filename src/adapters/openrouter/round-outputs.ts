import type { ToolCall } from './tool-calls.js';

/*
 * What a round of tool calls gives back, per method of the ModelResult (read from the SDKs'
 * lib/model-result.js), and how the answer to one call is read or replaced in it:
 * - `executeToolRound` of `@openrouter/sdk`: the `function_call_output` items the next request sends,
 *   `{ type, id: 'output_<callId>', callId, output }`, a failure's `output` being `{"error": message}`
 *   as JSON; `@openrouter/agent`'s: `{ toolResults: those items, pausedCalls }`;
 * - `executeAutoApproveTools` (the calls run when a round pauses for an approval): the results kept
 *   for the next request, `{ callId, name, output, error? }`, a failure's message in `error`.
 * Replacing makes a new list (the SDK's items were broadcast to the app's streams as they are).
 */

export interface RoundOutputs {
  /** The error message the model reads for `callId`, if its answer is a failure. */
  errorOf(result: unknown, callId: string): string | undefined;
  /** `result` with the answer to `callId` replaced by a failure whose message is `text`. */
  withError(result: unknown, callId: string, text: string): unknown;
  /** `result` with a failure `text` answering `call` (one with an id), which had no answer, in the calls' order. */
  withAnswer(result: unknown, call: ToolCall, text: string, order: readonly ToolCall[]): unknown;
}

interface FunctionCallOutput {
  readonly type?: unknown;
  readonly callId?: unknown;
  readonly output?: unknown;
}

interface UnsentResult {
  readonly callId?: unknown;
  readonly error?: unknown;
}

const failureOutput = (text: string) => JSON.stringify({ error: text });

/** The error message of a `function_call_output`'s `output`, when it is a failure. */
function errorOfOutput(output: unknown): string | undefined {
  if (typeof output !== 'string') return undefined;
  try {
    const parsed = JSON.parse(output) as unknown;
    const error = parsed !== null && typeof parsed === 'object' ? (parsed as { error?: unknown }).error : undefined;
    return typeof error === 'string' ? error : undefined;
  } catch {
    return undefined;
  }
}

/** Where an answer to `call` goes in `items`: before the first answer to a call made after it. */
function insertionIndex(items: readonly unknown[], call: ToolCall, order: readonly ToolCall[]): number {
  const position = order.indexOf(call);
  const later = new Set(order.slice(position + 1).map((each) => each.id));
  const index = items.findIndex((item) => later.has((item as { callId?: string } | null)?.callId));
  return index === -1 ? items.length : index;
}

function inserted(items: readonly unknown[], item: unknown, call: ToolCall, order: readonly ToolCall[]): unknown[] {
  const copy = [...items];
  copy.splice(insertionIndex(items, call, order), 0, item);
  return copy;
}

/** `executeToolRound`'s list of `function_call_output` items (`@openrouter/sdk`). */
export const FUNCTION_CALL_OUTPUTS: RoundOutputs = {
  errorOf(result, callId) {
    if (!Array.isArray(result)) return undefined;
    const item = result.find((each: FunctionCallOutput | null) => each?.callId === callId) as FunctionCallOutput;
    return errorOfOutput(item?.output);
  },
  withError(result, callId, text) {
    if (!Array.isArray(result)) return result;
    return result.map((item: FunctionCallOutput | null) =>
      item?.callId === callId ? { ...item, output: failureOutput(text) } : item,
    );
  },
  withAnswer(result, call, text, order) {
    if (!Array.isArray(result)) return result;
    const item = {
      type: 'function_call_output',
      id: `output_${call.id}`,
      callId: call.id,
      output: failureOutput(text),
    };
    return inserted(result, item, call, order);
  },
};

/** `executeToolRound`'s `{ toolResults, pausedCalls }` (`@openrouter/agent`). */
export const AGENT_ROUND_OUTPUTS: RoundOutputs = {
  errorOf(result, callId) {
    return FUNCTION_CALL_OUTPUTS.errorOf((result as { toolResults?: unknown } | null)?.toolResults, callId);
  },
  withError(result, callId, text) {
    const round = result as { toolResults?: unknown } | null;
    if (round === null || typeof round !== 'object' || !Array.isArray(round.toolResults)) return result;
    return { ...round, toolResults: FUNCTION_CALL_OUTPUTS.withError(round.toolResults, callId, text) };
  },
  withAnswer(result, call, text, order) {
    const round = result as { toolResults?: unknown } | null;
    if (round === null || typeof round !== 'object' || !Array.isArray(round.toolResults)) return result;
    return { ...round, toolResults: FUNCTION_CALL_OUTPUTS.withAnswer(round.toolResults, call, text, order) };
  },
};

/** `executeAutoApproveTools`' results kept for the next request (`@openrouter/sdk`). */
export const UNSENT_RESULTS: RoundOutputs = {
  errorOf(result, callId) {
    if (!Array.isArray(result)) return undefined;
    const item = result.find((each: UnsentResult | null) => each?.callId === callId) as UnsentResult | undefined;
    return typeof item?.error === 'string' ? item.error : undefined;
  },
  withError(result, callId, text) {
    if (!Array.isArray(result)) return result;
    return result.map((item: UnsentResult | null) => (item?.callId === callId ? { ...item, error: text } : item));
  },
  withAnswer(result, call, text, order) {
    if (!Array.isArray(result)) return result;
    return inserted(result, { callId: call.id, name: call.name, output: null, error: text }, call, order);
  },
};
