/*
 * What `callModel`'s ModelResult hands around (`@openrouter/sdk` 1.x and `@openrouter/agent`, read
 * from their lib/model-result.js and lib/tool-executor.js), read defensively: a getter that throws
 * gives no fact, never an error in the app.
 * - a tool call, `{ id, name, arguments }`, made by the SDK from the model's `function_call` item:
 *   `id` its `call_id`, `arguments` the parsed JSON, or the model's raw text when it is not JSON;
 * - a tool of `callModel({ tools })`, `tool()`'s shape: `{ type: 'function', function: { name,
 *   description, inputSchema, execute?, ... } }`; the SDK runs the ones with an `execute`
 *   (`@openrouter/agent`'s server tools have no `function`, its HITL tools an `onToolCalled`);
 * - `modelResult.options.tools`, the tools as the app gave them; `modelResult.currentState.id`, the
 *   conversation's id when the app keeps the conversation's state (`state`).
 */

/** One call the model made, as the SDK has it. */
export interface ToolCall {
  readonly id: string | undefined;
  readonly name: string;
  /** The parsed arguments, or the model's text when it was not JSON. */
  readonly arguments: unknown;
}

/** `value` as a tool call, or `undefined` when it is not one. */
export function toolCallOf(value: unknown): ToolCall | undefined {
  try {
    if (value === null || typeof value !== 'object') return undefined;
    const { id, name, arguments: args } = value as Record<string, unknown>;
    if (typeof name !== 'string') return undefined;
    return { id: typeof id === 'string' ? id : undefined, name, arguments: args };
  } catch {
    return undefined;
  }
}

/** A tool's `function` with an `execute`: the tools the SDK runs itself. */
export type ExecutableFunction = Record<string, unknown> & { execute: (...args: unknown[]) => unknown };

/** The `function` of a tool the SDK runs itself (one with an `execute`), else `undefined`. */
export function executableFunctionOf(tool: unknown): ExecutableFunction | undefined {
  try {
    const fn = (tool as { function?: unknown } | null | undefined)?.function;
    if (fn === null || typeof fn !== 'object') return undefined;
    return typeof (fn as { execute?: unknown }).execute === 'function' ? (fn as ExecutableFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** A tool's name (`function.name`), if it has one. */
export function toolNameOf(tool: unknown): string | undefined {
  try {
    const name = (tool as { function?: { name?: unknown } } | null | undefined)?.function?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The tools the app gave `callModel`, as the ModelResult keeps them. */
export function toolsOf(modelResult: object): readonly unknown[] {
  try {
    const tools = (modelResult as { options?: { tools?: unknown } }).options?.tools;
    return Array.isArray(tools) ? tools : [];
  } catch {
    return [];
  }
}

/** Whether no tool of `tools` has the name the model called: the model's mistake. */
export function isUnknownName(tools: readonly unknown[], name: string): boolean {
  return !tools.some((tool) => toolNameOf(tool) === name);
}

/** The conversation's id, when the app keeps its state (`callModel({ state })`); never invented. */
export function conversationIdOf(modelResult: object): string | undefined {
  try {
    const id = (modelResult as { currentState?: { id?: unknown } | null }).currentState?.id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
