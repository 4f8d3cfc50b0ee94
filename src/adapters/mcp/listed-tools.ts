import { isPromiseLike } from '../../internal/is-async-iterable.js';
import type { ToolCallRejection } from '../../tool-call-listener.js';
import { type Handler, replaceMethod } from './protocol-seam.js';
import { refusalOf } from './remote-call.js';

/*
 * The tools a client's server listed (the client's `tools/list` answers), so that a call to a name
 * the server never listed that fails counts as the model's mistake (`unknown_tool`: `_unknown` in
 * the client's metrics, error source `model`): a model can make up any name, and each would be a
 * metric series of its own on the client, never freed. The span keeps the name. A client that never
 * listed its server's tools knows no names: its calls keep theirs. A call that succeeds keeps its
 * name too (the tool exists). A tool the server adds after the client's last list and that fails
 * before the client lists again is counted as `_unknown`: the SDK's list_changed refresh calls
 * `listTools`, which is what is read. Bounded: a server listing more than MAX_LISTED_TOOLS names is
 * read as one that listed none.
 */

const listedByClient = new WeakMap<object, Set<string>>();

/** Names kept per client at most: a server listing more is read as one that listed none (names kept). */
export const MAX_LISTED_TOOLS = 10_000;

/** `listTools` of `client`, replaced on the instance, notes the names of each answer. */
export function noteListedTools(client: object): void {
  replaceMethod(client, 'listTools', listToolsNoting);
}

/** `listTools` (an instance's, or under zero-code the Client class's) noting the names of each answer for its client. */
export function listToolsNoting(listTools: Handler): Handler {
  return function listToolsNoted(this: unknown, ...args: unknown[]) {
    const answer = listTools.apply(this, args);
    if (this !== null && typeof this === 'object' && isPromiseLike(answer)) {
      // a branch of its own: the caller's promise, rejection included, is the SDK's as it was
      answer.then(
        (result) => note(this, args[0], result),
        () => undefined,
      );
    }
    return answer;
  };
}

/**
 * Whether `client` has listed its server's tools and `toolName` was not among them. A zero-code
 * stand-in (zero-code.ts) is an object whose prototype is the client the app lists the tools with.
 */
export function isUnlisted(client: object, toolName: string): boolean {
  const listed = listedByClient.get(client) ?? listedByClient.get(Object.getPrototypeOf(client) as object);
  return listed !== undefined && !listed.has(toolName);
}

/**
 * What a call to an unlisted tool that the peer refused is: the model's call of a tool that does not
 * exist, whether the peer said so with -32601 or -32602. A connection closed or a timeout says
 * nothing of the name: not marked.
 */
export function unlistedRefusalOf(error: unknown): ToolCallRejection | undefined {
  return refusalOf(error) === undefined ? undefined : 'unknown_tool';
}

/** One page of `tools/list`: the first (no cursor) starts the names again, a later one adds to them. */
function note(client: object, params: unknown, result: unknown): void {
  try {
    const tools = (result as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) return;
    const cursor = (params as { cursor?: unknown } | null | undefined)?.cursor;
    const listed = (cursor === undefined ? undefined : listedByClient.get(client)) ?? new Set<string>();
    for (const tool of tools) {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name === 'string') listed.add(name);
      if (listed.size > MAX_LISTED_TOOLS) {
        listedByClient.delete(client);
        return;
      }
    }
    listedByClient.set(client, listed);
  } catch {
    // an answer of another shape: the names stay as they were
  }
}
