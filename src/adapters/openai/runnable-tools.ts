/*
 * The tools `client.chat.completions.runTools({ tools })` runs (openai's lib/AbstractChatCompletionRunner),
 * by shape, read defensively (a getter that throws makes the entry one the adapter leaves alone):
 * - a RunnableTool `{ type: 'function', function: { function, parse?, name?, parameters, description } }`:
 *   the runner calls `function.parse(rawArguments)` when there is one, then
 *   `function.function(argumentsOrParsed, runner, toolContext)`; its name is `function.name`, else the
 *   JavaScript function's own name;
 * - an auto-parseable tool (`zodFunction()`, the Standard Schema helper): `$brand`
 *   `'auto-parseable-tool'`, whose (non-enumerable) `$callback` and `$parseRaw` the runner uses as
 *   `function` and `parse`.
 */

export type ToolFunction = (this: unknown, ...args: unknown[]) => unknown;

/** What the runner calls for one tool, and the object it reads them on. */
export interface RunnableShape {
  readonly kind: 'runnable' | 'auto-parseable';
  readonly name: string;
  readonly description: unknown;
  readonly parameters: unknown;
  /** The object holding `run` and `parse`: `tool.function`, or the auto-parseable tool itself. */
  readonly holder: object;
  readonly run: ToolFunction;
  readonly parse: ToolFunction | undefined;
}

/** The keys of `run` and `parse` on the holder, per kind. */
export const KEYS = {
  runnable: { run: 'function', parse: 'parse' },
  'auto-parseable': { run: '$callback', parse: '$parseRaw' },
} as const;

/** `tool`'s shape when the runner would call it, else `undefined` (API tool definitions, custom tools). */
export function runnableShapeOf(tool: unknown): RunnableShape | undefined {
  if (tool === null || typeof tool !== 'object') return undefined;
  try {
    const entry = tool as Record<string, unknown>;
    const definition = entry.function as Record<string, unknown> | null | undefined;
    if (entry.$brand === 'auto-parseable-tool') {
      if (typeof entry.$callback !== 'function') return undefined;
      return {
        kind: 'auto-parseable',
        name: String(definition?.name ?? ''),
        description: definition?.description,
        parameters: definition?.parameters,
        holder: tool,
        run: entry.$callback as ToolFunction,
        parse: typeof entry.$parseRaw === 'function' ? (entry.$parseRaw as ToolFunction) : undefined,
      };
    }
    if (entry.type !== 'function' || definition === null || typeof definition !== 'object') return undefined;
    const run = definition.function;
    if (typeof run !== 'function') return undefined;
    return {
      kind: 'runnable',
      name: String(definition.name || run.name || ''),
      description: definition.description,
      parameters: definition.parameters,
      holder: definition,
      run: run as ToolFunction,
      parse: typeof definition.parse === 'function' ? (definition.parse as ToolFunction) : undefined,
    };
  } catch {
    return undefined;
  }
}
