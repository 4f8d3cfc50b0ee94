import { forwardingObject } from '../../internal/forwarding-object.js';

/**
 * The description of the SDK's `FUNCTION_TOOL_PARSED_INPUT_CALLBACK`: a module-private symbol of
 * `@openai/agents-core` (not `Symbol.for`, not exported), the key under which the runner hands
 * `invoke` a callback in `details`. The SDK's `tool()` calls it once the arguments parsed against the
 * tool's schema, right before the tool's `execute`.
 */
const PARSED_INPUT_CALLBACK = 'openai.agents.functionToolParsedInputCallback';

/** Whether the SDK parsed a call's arguments: `undefined` when it could not be watched. */
export interface InputParsing {
  /** What `invoke` is given in place of the runner's `details`. */
  readonly details: unknown;
  readonly parsed: () => boolean | undefined;
}

/**
 * Watches whether the SDK parsed the arguments of one `invoke`, so that a failure the SDK turned
 * into output is told apart: arguments that fail the schema (the model called the tool wrong) or
 * the tool's own failure. `details` is handed on as a stand-in whose callback also records the
 * parse (forwardingObject: every other read is made on the runner's object). Without the runner's
 * callback (a direct `invoke`, or an SDK version that has no such key), `details` is handed on as it
 * is and nothing is known.
 */
export function watchInputParsing(details: unknown): InputParsing {
  const key = callbackKey(details);
  if (key === undefined) return { details, parsed: () => undefined };
  const runnerCallback = (details as Record<symbol, unknown>)[key] as (input: unknown) => unknown;
  let parsed = false;
  const callback = (input: unknown) => {
    parsed = true;
    return runnerCallback(input);
  };
  return { details: forwardingObject(details as object, new Map([[key, callback]])), parsed: () => parsed };
}

function callbackKey(details: unknown): symbol | undefined {
  if (details === null || typeof details !== 'object') return undefined;
  try {
    const key = Object.getOwnPropertySymbols(details).find((symbol) => symbol.description === PARSED_INPUT_CALLBACK);
    return key !== undefined && typeof (details as Record<symbol, unknown>)[key] === 'function' ? key : undefined;
  } catch {
    return undefined;
  }
}
