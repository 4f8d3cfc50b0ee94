import { declaredNames, type FunctionCallLike } from './callable-tool.js';
import { nameOf } from './function-calls.js';
import { declarationsOf } from './tool-declarations.js';

/*
 * The CallableTools handed to the SDK together: one `wrapTools` list, or under zero-code one
 * request's `config.tools`. A function call none of them declares is the model's mistake (a misspelt
 * name): `generateContent` hands it to every CallableTool, none answers it, and the model gets no
 * answer for it. The group is what tells such a call from a call another tool of the request answers.
 * The SDK hands every CallableTool the same FunctionCall objects: the first stand-in of the group to
 * see a call judges it, once, and the others leave it (`judged` is shared by all groups, so a call is
 * observed once whichever groups its tools are in).
 */

/** The FunctionCalls already judged, declared or not (the SDK's own objects, one per call of the model). */
const judged = new WeakSet<object>();

export class CallableToolGroup {
  /** The group's CallableTools as the SDK is given them (stand-ins, and tools observed already). */
  members: readonly unknown[] = [];

  /**
   * The calls of `calls` no tool of the group declares and no stand-in judged yet, each now judged.
   * None when a tool's declarations cannot be read (nothing can be told then).
   */
  async undeclared(calls: readonly FunctionCallLike[]): Promise<FunctionCallLike[]> {
    const candidates = calls.filter(unjudged);
    if (candidates.length === 0) return [];
    const declared = new Set<string>();
    for (const declarations of await Promise.all(this.members.map(declarationsOf))) {
      const names = declaredNames(declarations);
      if (names === undefined) return [];
      for (const name of names) declared.add(name);
    }
    const found: FunctionCallLike[] = [];
    // judged again: another stand-in may have judged one while the declarations were read
    for (const call of candidates.filter(unjudged)) {
      judged.add(call as object);
      if (!declared.has(nameOf(call) as string)) found.push(call);
    }
    return found;
  }
}

/** A call with a name (a nameless one is the SDK's to refuse) that no stand-in judged yet. */
function unjudged(call: FunctionCallLike): boolean {
  return call !== null && typeof call === 'object' && !judged.has(call) && nameOf(call) !== undefined;
}
