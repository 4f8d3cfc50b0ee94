import { forwardingObject } from './forwarding-object.js';
import { assertListener, describe } from './validate.js';

type Execute = (this: unknown, ...args: never[]) => unknown;

/** How the errors name the record and one of its tools: `a record of AI SDK tools`, `an AI SDK tool object`. */
export interface RecordOfToolsNames {
  readonly record: string;
  readonly tool: string;
}

/**
 * `wrapTools` for a record of tools that each run through their `execute` (the AI SDK's, Mastra's):
 * a new record, same keys, same order. A tool with an `execute` becomes a stand-in for it
 * (forwarding-object.ts: every other property read on the original, the original not modified)
 * whose `execute` is `observed(name, tool, execute)` (and whose members named by `alsoReplaced` are
 * its values); a tool without one is kept as it is.
 */
export function wrapRecordOfTools(
  tools: unknown,
  listener: unknown,
  names: RecordOfToolsNames,
  observed: (name: string, tool: object, execute: Execute) => Execute,
  /** Other members the stand-in replaces (the AI SDK's `needsApproval`), by name; none when undefined. */
  alsoReplaced?: (name: string, tool: object) => Iterable<[string, unknown]>,
): Record<string, unknown> {
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(`wrapTools: \`tools\` must be ${names.record}, got ${describe(tools)}`);
  }
  assertListener(listener, 'wrapTools');
  const wrapped: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (tool === null || typeof tool !== 'object') {
      throw new TypeError(`wrapTools: \`tools.${name}\` must be ${names.tool}, got ${describe(tool)}`);
    }
    const execute: unknown = (tool as { execute?: unknown }).execute;
    if (execute === undefined || execute === null) {
      // a client-side or provider-defined tool: nothing runs here
      wrapped[name] = tool;
      continue;
    }
    if (typeof execute !== 'function') {
      throw new TypeError(
        `wrapTools: \`tools.${name}.execute\` must be a function when present, got ${describe(execute)}`,
      );
    }
    // a stand-in, not `{ ...tool }`: a spread keeps own enumerable properties only, and is not the tool
    const replaced = new Map<string, unknown>([['execute', observed(name, tool, execute as Execute)]]);
    if (alsoReplaced !== undefined) for (const [key, value] of alsoReplaced(name, tool)) replaced.set(key, value);
    wrapped[name] = forwardingObject(tool, replaced);
  }
  return wrapped;
}
