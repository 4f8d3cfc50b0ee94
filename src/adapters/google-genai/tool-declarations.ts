import { logger } from '../../internal/logger.js';
import type { CallableToolLike } from './callable-tool.js';

/*
 * The declarations of a CallableTool as `@google/genai` last read them. The SDK calls `tool()` on
 * each CallableTool of `config.tools` when a `generateContent` starts (each round of a stream), to send
 * the declarations to the model; the stand-in's `tool()` passes that read on and keeps its answer. So a
 * batch is judged by the declarations the model was given, a function the tool declares later is
 * observed from the next request on, and nothing is read twice (no read of our own on the hot path).
 * A tool whose `tool()` the SDK never read through the stand-in (its `callTool` called directly) is
 * read at its first call.
 */

/** The declarations of each stand-in, for the other tools of its group (tool-group.ts). */
const byStandIn = new WeakMap<object, ToolDeclarations>();

export class ToolDeclarations {
  #latest: Promise<unknown> | undefined;

  constructor(private readonly tool: CallableToolLike) {}

  /** The stand-in's `tool()`: the tool's own answer, unchanged, kept as the latest declarations. */
  readonly read = (...args: unknown[]): unknown => {
    const answer: unknown = Reflect.apply(this.tool.tool, this.tool, args);
    // the SDK's own read fails the request when it rejects: the stand-in has nothing to add to that
    this.#latest = Promise.resolve(answer).then(
      (declarations) => declarations,
      () => undefined,
    );
    return answer;
  };

  /** The latest declarations (`undefined` when they cannot be read); read now if they never were. */
  current(): Promise<unknown> {
    this.#latest ??= readDeclarations(this.tool, 'each of its calls is observed');
    return this.#latest;
  }

  /** Makes these the declarations `standIn` is looked up by. */
  of(standIn: object): void {
    byStandIn.set(standIn, this);
  }
}

/** The declarations of a CallableTool of a group: its stand-in's, or a read of its own `tool()`. */
export function declarationsOf(tool: unknown): Promise<unknown> {
  if (tool !== null && typeof tool === 'object') {
    const declarations = byStandIn.get(tool);
    if (declarations !== undefined) return declarations.current();
  }
  return readDeclarations(tool as CallableToolLike, 'the calls no tool declares are not observed');
}

/** `tool()`'s answer, or `undefined` (logged, with what that means: `consequence`). */
function readDeclarations(tool: CallableToolLike, consequence: string): Promise<unknown> {
  return Promise.resolve()
    .then(() => tool.tool())
    .catch((error: unknown) => {
      logger.error(`could not read a CallableTool’s declarations; ${consequence}`, error);
      return undefined;
    });
}
