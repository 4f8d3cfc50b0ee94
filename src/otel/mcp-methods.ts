/*
 * The MCP methods as the MCP semantic conventions name their spans: `{mcp.method.name} {target}`.
 * One table, so that every MCP span is named here: the tool call's (the listener's span for a call
 * with `call.remote`) and every other operation's (the MCP adapter's). The target of `tools/call` is
 * the tool; of `prompts/get` and of a `completion/complete` of a prompt's argument, the prompt
 * (`gen_ai.prompt.name`); the resource methods carry their URI as `mcp.resource.uri` only: the
 * conventions keep a URI, unbounded, out of the name. Every other method is named by itself.
 */

/** Where a method's target is in its params. */
export type McpTarget =
  /** `params.name`, the tool's name: `tools/call {tool}` */
  | 'tool'
  /** `params.name`, the prompt's name: `prompts/get {prompt}` */
  | 'prompt'
  /** `params.ref.name` when `params.ref.type` is `ref/prompt`: `completion/complete {prompt}` */
  | 'prompt-ref'
  /** `params.uri`, an attribute only: `resources/read` */
  | 'resource-uri';

export const MCP_METHOD_TARGETS: ReadonlyMap<string, McpTarget> = new Map<string, McpTarget>([
  ['tools/call', 'tool'],
  ['prompts/get', 'prompt'],
  ['completion/complete', 'prompt-ref'],
  ['resources/read', 'resource-uri'],
  ['resources/subscribe', 'resource-uri'],
  ['resources/unsubscribe', 'resource-uri'],
  ['notifications/resources/updated', 'resource-uri'],
]);

/** The span name of an MCP operation: the method, and its target when it has one in its name. */
export function mcpSpanName(method: string, target: string | undefined): string {
  return target === undefined ? method : `${method} ${target}`;
}

/** The prompt an operation is about: `prompts/get`'s `name`, a prompt's `completion/complete`'s `ref.name`. */
export function mcpPromptOf(method: string, params: object): string | undefined {
  const target = MCP_METHOD_TARGETS.get(method);
  let name: unknown;
  if (target === 'prompt') name = (params as { name?: unknown }).name;
  else if (target === 'prompt-ref') {
    const ref = (params as { ref?: { type?: unknown; name?: unknown } }).ref;
    if (ref !== null && typeof ref === 'object' && ref.type === 'ref/prompt') name = ref.name;
  }
  return nonEmpty(name);
}

/** The resource URI of the methods the conventions give `mcp.resource.uri`. */
export function mcpResourceUriOf(method: string, params: object): string | undefined {
  return MCP_METHOD_TARGETS.get(method) === 'resource-uri' ? nonEmpty((params as { uri?: unknown }).uri) : undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
