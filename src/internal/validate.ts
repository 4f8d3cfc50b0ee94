const LISTENER_METHODS = ['beforeCall', 'afterCall', 'onError', 'afterCompletion', 'runInContext'] as const;

/** Throws a TypeError naming the argument (and the method) that is not a listener. */
export function assertListener(listener: unknown, where: string): void {
  if (listener === null || typeof listener !== 'object') {
    throw new TypeError(`${where}: \`listener\` must be a ToolCallListener object, got ${describe(listener)}`);
  }
  for (const method of LISTENER_METHODS) {
    const value = (listener as Record<string, unknown>)[method];
    if (value !== undefined && typeof value !== 'function') {
      throw new TypeError(`${where}: \`listener.${method}\` must be a function when present, got ${describe(value)}`);
    }
  }
}

/** An object whose `methods` are all functions: how a framework's object is recognised, by its shape. */
export function hasMethods(value: unknown, methods: readonly string[]): boolean {
  if (value === null || typeof value !== 'object') return false;
  return methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
}

export function assertToolCallback(callback: unknown, where: string, name = 'callback'): void {
  if (!hasMethods(callback, ['call', 'getToolDefinition', 'getToolMetadata'])) {
    throw new TypeError(
      `${where}: \`${name}\` must be a ToolCallback (getToolDefinition, getToolMetadata, call), got ${describe(callback)}`,
    );
  }
}

/** What a `wrapTools` takes in its list: named in the errors, and each entry checked if `entry` is given. */
export interface ToolListShape {
  /** What the list holds, as the error says it: `tools` must be an array of {of}. */
  readonly of: string;
  /** Each entry: `is` recognises it; `a` says what it must be in the error (`tools[i]` must be {a}). */
  readonly entry?: { readonly is: (tool: unknown) => boolean; readonly a: string };
}

/**
 * Throws a TypeError naming the first argument of a `wrapTools(tools, listener)` that is wrong, in
 * that order: `tools` not an array, `listener` not a listener, an entry of `tools` not of its shape.
 */
export function assertToolList(tools: unknown, listener: unknown, where: string, shape: ToolListShape): void {
  if (!Array.isArray(tools)) {
    throw new TypeError(`${where}: \`tools\` must be an array of ${shape.of}, got ${describe(tools)}`);
  }
  assertListener(listener, where);
  const { entry } = shape;
  if (!entry) return;
  for (const [index, tool] of tools.entries()) {
    if (!entry.is(tool)) throw new TypeError(`${where}: \`tools[${index}]\` must be ${entry.a}, got ${describe(tool)}`);
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
