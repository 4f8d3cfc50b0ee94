import type { ToolDefinition } from '../tool-callback.js';

/** The name listeners get for a tool whose name cannot be made a string. */
export const UNNAMED_TOOL = '[unnamed tool]';

/**
 * The tool name handed to listeners: always a string, as `ToolCallListener` promises. A
 * definition whose `name` is not one (a Symbol, an object, a getter that throws: a framework's
 * tool object passed as is) must not keep a tool from running that would run unwrapped, nor make
 * a listener throw on a template literal: it is converted with `String()`, or named
 * `[unnamed tool]` when even that throws. Checked here, in the call path, so that every adapter
 * gets it.
 */
export function toolNameOf(definition: ToolDefinition): string {
  let name: unknown;
  try {
    name = definition.name;
  } catch {
    return UNNAMED_TOOL;
  }
  // the conversion in a function of its own: kept out of the decorator's hot path, V8 inlines this one
  return typeof name === 'string' ? name : stringOf(name);
}

function stringOf(name: unknown): string {
  try {
    return String(name);
  } catch {
    return UNNAMED_TOOL;
  }
}
