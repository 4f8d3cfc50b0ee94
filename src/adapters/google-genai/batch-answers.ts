import type { FunctionCallLike } from './callable-tool.js';
import { idOf, nameOf } from './function-calls.js';

/*
 * A CallableTool answers a batch of function calls with one array of parts. Which part answers which
 * call: a `functionResponse` whose `id` is a call's id answers that call; one without (`mcpToTool`
 * gives none) answers the next call of its `name`, in the batch's order, that has no answer yet. Any
 * other part (a `functionResponse` no call of the batch claims, a part of another kind) belongs to no
 * call: it is handed on where it is.
 */

/** For each of `parts`, the call of `calls` it answers, or `undefined`. */
export function answeredCalls(
  parts: readonly unknown[],
  calls: readonly FunctionCallLike[],
): Array<FunctionCallLike | undefined> {
  const owners = new Array<FunctionCallLike | undefined>(parts.length);
  const answered = new Set<FunctionCallLike>();
  const byId = new Map<string, FunctionCallLike>();
  for (const call of calls) {
    const id = idOf(call);
    if (id !== undefined && !byId.has(id)) byId.set(id, call);
  }
  const responses = parts.map(functionResponseOf);
  responses.forEach((response, index) => {
    const owner = response?.id === undefined ? undefined : byId.get(response.id);
    if (owner === undefined) return;
    owners[index] = owner;
    answered.add(owner);
  });
  responses.forEach((response, index) => {
    if (owners[index] !== undefined || response?.name === undefined) return;
    const owner = calls.find((call) => !answered.has(call) && nameOf(call) === response.name);
    if (owner === undefined) return;
    owners[index] = owner;
    answered.add(owner);
  });
  return owners;
}

/**
 * The parts handed back to the SDK for a batch: the tool's `parts` in their order, where a call's
 * answer is the one the listener gave instead (a reported failure: in place of that call's parts, at
 * the first of them); then, in the batch's order, the answers of calls that had no part in `parts`,
 * and `added` (the answers to the calls no tool declares).
 */
export function batchParts(
  parts: readonly unknown[],
  owners: ReadonlyArray<FunctionCallLike | undefined>,
  answers: ReadonlyMap<FunctionCallLike, { readonly parts: readonly unknown[]; readonly replaced: boolean }>,
  added: readonly unknown[],
): unknown[] {
  const result: unknown[] = [];
  const placed = new Set<FunctionCallLike>();
  parts.forEach((part, index) => {
    const owner = owners[index];
    const answer = owner === undefined ? undefined : answers.get(owner);
    if (owner === undefined || answer === undefined || !answer.replaced) {
      result.push(part);
    } else if (!placed.has(owner)) {
      result.push(...answer.parts);
    }
    if (owner !== undefined) placed.add(owner);
  });
  for (const [call, answer] of answers) if (!placed.has(call)) result.push(...answer.parts);
  result.push(...added);
  return result;
}

/** A part's `functionResponse` id and name, where it has them. */
function functionResponseOf(part: unknown): { id?: string; name?: string } | undefined {
  try {
    const response = (part as { functionResponse?: { id?: unknown; name?: unknown } } | null)?.functionResponse;
    if (response === null || typeof response !== 'object') return undefined;
    return {
      id: typeof response.id === 'string' ? response.id : undefined,
      name: typeof response.name === 'string' ? response.name : undefined,
    };
  } catch {
    return undefined;
  }
}
