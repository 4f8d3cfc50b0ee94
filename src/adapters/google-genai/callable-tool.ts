/*
 * The tools `@google/genai` calls itself (automatic function calling): a `CallableTool`
 * `{ tool(), callTool(functionCalls) }` in `config.tools` of `ai.models.generateContent` /
 * `generateContentStream` (and `ai.chats`), `mcpToTool(client)` among them. The SDK tells one by
 * `callTool` being a function; `tool()` gives its declarations (`functionDeclarations[].name`).
 * `generateContent` hands every CallableTool all the function calls of a response (each answers the
 * ones it declares); `generateContentStream` hands the one that declares a call that call alone.
 */

export interface FunctionCallLike {
  readonly id?: unknown;
  readonly name?: unknown;
  readonly args?: unknown;
}

export interface CallableToolLike {
  tool(): Promise<unknown>;
  callTool(functionCalls: FunctionCallLike[]): Promise<unknown[]>;
}

/** Whether the SDK would call `tool` itself (what its own `isCallableTool` checks). */
export function isCallableTool(tool: unknown): tool is CallableToolLike {
  try {
    return tool !== null && typeof tool === 'object' && typeof (tool as { callTool?: unknown }).callTool === 'function';
  } catch {
    return false;
  }
}

/** The function names a `tool()` result declares; `undefined` when it cannot be read. */
export function declaredNames(declaration: unknown): ReadonlySet<string> | undefined {
  try {
    const declarations = (declaration as { functionDeclarations?: unknown } | null)?.functionDeclarations;
    if (!Array.isArray(declarations)) return undefined;
    const names = new Set<string>();
    for (const entry of declarations) {
      const name = (entry as { name?: unknown } | null)?.name;
      if (typeof name === 'string') names.add(name);
    }
    return names;
  } catch {
    return undefined;
  }
}

/** The declaration of `name` in a `tool()` result: its description and parameters schema. */
export function declarationOf(declaration: unknown, name: string): { description?: string; parameters?: unknown } {
  try {
    const declarations = (declaration as { functionDeclarations?: unknown } | null)?.functionDeclarations;
    if (!Array.isArray(declarations)) return {};
    const found = declarations.find((entry) => (entry as { name?: unknown } | null)?.name === name) as
      | { description?: unknown; parameters?: unknown; parametersJsonSchema?: unknown }
      | undefined;
    if (found === undefined) return {};
    return {
      description: typeof found.description === 'string' ? found.description : undefined,
      parameters: found.parametersJsonSchema ?? found.parameters,
    };
  } catch {
    return {};
  }
}
