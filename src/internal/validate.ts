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

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
