import type { FunctionCallLike } from './callable-tool.js';

/*
 * The fields of a FunctionCall the model made, read defensively: the SDK hands the model's objects on
 * as they came, and a read must never fail the call.
 */

/** The function's name; `undefined` when the model gave none. */
export function nameOf(call: FunctionCallLike): string | undefined {
  try {
    return typeof call?.name === 'string' ? call.name : undefined;
  } catch {
    return undefined;
  }
}

/** The model's id for the call, when it gave one. */
export function idOf(call: FunctionCallLike): string | undefined {
  try {
    return typeof call?.id === 'string' ? call.id : undefined;
  } catch {
    return undefined;
  }
}

/** The call's arguments, as the model sent them. */
export function argsOf(call: FunctionCallLike): unknown {
  try {
    return call?.args;
  } catch {
    return undefined;
  }
}
