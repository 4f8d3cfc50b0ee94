import { forwardingObject } from '../../internal/forwarding-object.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import {
  observeBadArguments,
  observeFailureBeforeRun,
  observeUnknownTool,
  refusedArgumentsError,
} from './bad-calls.js';
import { CallProgress, observedTool } from './observed-tool.js';
import type { RoundOutputs } from './round-outputs.js';
import { executableFunctionOf, isUnknownName, type ToolCall, toolNameOf } from './tool-calls.js';

/*
 * A round of `@openrouter/sdk` 1.x, where a tool's stand-in learns its call: `executeToolRound(calls,
 * turnContext)` and `executeAutoApproveTools(calls, turnContext)` map the calls in order, and each
 * call's first step, synchronous, is `this.options.tools.find(tool => tool.function.name ===
 * call.name)`; the tool found goes to the SDK's `executeTool` with the call. So the method runs with
 * a view of the ModelResult (forwardingObject) whose `options.tools` is the app's array behind a Proxy
 * with its own `find`: while the method's synchronous part runs, the tool found is handed over as a
 * stand-in bound to the first call of that name not bound yet (the k-th search for a name is the k-th
 * call of that name). Once the round settles, the calls the SDK answered without running a tool are
 * observed from its answers (bad-calls.ts).
 */
export class ClaimingRound {
  private open = true;
  /** Per call: undefined (no tool found), 'not-run' (a tool the SDK does not run), or its progress. */
  private readonly progress: Array<CallProgress | 'not-run' | undefined>;
  private readonly order: readonly ToolCall[];

  constructor(
    private readonly calls: readonly (ToolCall | undefined)[],
    private readonly listener: ToolCallListener<unknown>,
    private readonly conversationId: string | undefined,
  ) {
    this.progress = calls.map(() => undefined);
    this.order = calls.filter((call): call is ToolCall => call !== undefined);
  }

  /** The ModelResult as the round's method sees it: its `options.tools` searched through the round. */
  view(modelResult: object): object {
    const options = (modelResult as { options?: unknown }).options;
    if (options === null || typeof options !== 'object') return modelResult;
    const tools = (options as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) return modelResult;
    const find = (predicate: (tool: unknown, index: number, all: unknown[]) => unknown, thisArg?: unknown) => {
      const found = Array.prototype.find.call(tools, predicate, thisArg) as unknown;
      return this.open && found !== null && typeof found === 'object' ? this.bind(found) : found;
    };
    const searched = new Proxy(tools, {
      get: (target, key, receiver) => (key === 'find' ? find : Reflect.get(target, key, receiver)),
    });
    return forwardingObject(
      modelResult,
      new Map([['options', forwardingObject(options, new Map([['tools', searched]]))]]),
    );
  }

  /** The method's synchronous part is over: later searches are the app's tools as they are. */
  close(): void {
    this.open = false;
  }

  private bind(tool: object): unknown {
    const name = toolNameOf(tool);
    const index = this.calls.findIndex((call, i) => call?.name === name && this.progress[i] === undefined);
    const call = this.calls[index];
    if (call === undefined) return tool;
    if (executableFunctionOf(tool) === undefined) {
      this.progress[index] = 'not-run';
      return tool;
    }
    const progress = new CallProgress();
    this.progress[index] = progress;
    return observedTool(tool, call, this.listener, progress, this.conversationId);
  }

  /** The round's result, once the calls it answered without a tool are observed (and, reported, answered so). */
  settle(result: unknown, outputs: RoundOutputs, tools: readonly unknown[]): unknown {
    let answered = result;
    for (const [index, call] of this.calls.entries()) {
      if (call === undefined) continue;
      const progress = this.progress[index];
      if (progress === undefined) {
        if (!isUnknownName(tools, call.name)) continue;
        const text = observeUnknownTool(this.listener, call, this.conversationId);
        if (text !== undefined && call.id !== undefined) {
          answered = outputs.withAnswer(answered, call, text, this.order);
        }
        continue;
      }
      if (progress === 'not-run' || progress.executed || call.id === undefined) continue;
      const message = outputs.errorOf(answered, call.id);
      if (message === undefined) continue;
      const text = progress.validated
        ? observeFailureBeforeRun(this.listener, call, new Error(message), this.conversationId)
        : observeBadArguments(this.listener, call, refusedArgumentsError(call, message), this.conversationId);
      if (text !== undefined) answered = outputs.withError(answered, call.id, text);
    }
    return answered;
  }
}
