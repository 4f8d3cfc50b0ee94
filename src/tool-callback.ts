/** What the model is told about a tool. Passed through the decorator untouched. */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
}

/** Free-form metadata of a tool; `returnDirect` as in the reference design. */
export interface ToolMetadata {
  readonly returnDirect?: boolean;
  readonly [key: string]: unknown;
}

/** What the caller (an adapter, an agent loop) passes along with one call. */
export interface ToolContext {
  /** The model's id for this call, where the framework gives one. */
  readonly toolCallId?: string;
  /** Aborts the call; a listener sees it in `ToolCallInfo.signal`. */
  readonly signal?: AbortSignal;
  readonly [key: string]: unknown;
}

/**
 * A tool as the agent loop sees it. `call` may return a plain value, a Promise, or an
 * AsyncIterable (a streaming tool); the decorator keeps whichever it is.
 */
export interface ToolCallback<Input = unknown, Output = unknown> {
  getToolDefinition(): ToolDefinition;
  getToolMetadata(): ToolMetadata;
  call(toolInput: Input, toolContext?: ToolContext): Output;
}

const EMPTY_METADATA: ToolMetadata = Object.freeze({});

/**
 * Makes a `ToolCallback` from a plain function.
 *
 * @example
 * const weather = functionToolCallback({ name: 'weather' }, async ({ city }: { city: string }) => `sunny in ${city}`);
 */
export function functionToolCallback<Input, Output>(
  definition: ToolDefinition,
  fn: (toolInput: Input, toolContext?: ToolContext) => Output,
  metadata: ToolMetadata = EMPTY_METADATA,
): ToolCallback<Input, Output> {
  if (definition === null || typeof definition !== 'object') {
    throw new TypeError('functionToolCallback: `definition` must be an object with a `name`');
  }
  if (typeof definition.name !== 'string' || definition.name.length === 0) {
    throw new TypeError('functionToolCallback: `definition.name` must be a non-empty string');
  }
  if (typeof fn !== 'function') {
    throw new TypeError('functionToolCallback: `fn` must be a function');
  }
  if (metadata === null || typeof metadata !== 'object') {
    throw new TypeError('functionToolCallback: `metadata` must be an object when given');
  }
  return {
    getToolDefinition: () => definition,
    getToolMetadata: () => metadata,
    call: (toolInput, toolContext) => fn(toolInput, toolContext),
  };
}
