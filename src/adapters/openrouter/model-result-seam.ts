import type { ToolCallListener } from '../../tool-call-listener.js';
import { observeBadArguments, observeFailureBeforeRun, observeUnknownTool } from './bad-calls.js';
import { ClaimingRound } from './claiming-round.js';
import { CallProgress, observedTool } from './observed-tool.js';
import { AGENT_ROUND_OUTPUTS, FUNCTION_CALL_OUTPUTS, type RoundOutputs, UNSENT_RESULTS } from './round-outputs.js';
import {
  conversationIdOf,
  executableFunctionOf,
  isUnknownName,
  type ToolCall,
  toolCallOf,
  toolsOf,
} from './tool-calls.js';

/*
 * The seam: the methods of `callModel`'s ModelResult this adapter replaces, on its prototype
 * (zero-code) or on one instance (`instrumentModelResult`), and the one place the two packages'
 * differences are read (their lib/model-result.js):
 * - `@openrouter/agent` runs every call the SDK runs itself (a round's, the calls run before pausing
 *   for an approval, the approved ones on resume) through `runToolWithHooks(tool, toolCall, ...)`,
 *   which has the tool and the call: the call's own stand-in goes in its place; the outcome it
 *   returns tells a parse failure, and, with the stand-in's progress, arguments its schema refused.
 *   A call no tool has the name of gets no answer in `executeToolRound` (the loop then stops and
 *   hands it to the app): observed when the round settles.
 * - `@openrouter/sdk` 1.x has no method per call: `executeToolRound`, `executeAutoApproveTools` and
 *   `processApprovalDecisions` (the approved calls, on resume) run as a ClaimingRound
 *   (claiming-round.ts). The approved calls are answered inside `processApprovalDecisions`, in the
 *   request it sends: one that fails before its tool runs is not observed.
 */

type Method = (this: object, ...args: unknown[]) => unknown;

/** Where a replaced method gets its listener: none when the call is not to be observed (disabled, or observed already). */
export type ListenerOf = (modelResult: object) => ToolCallListener<unknown> | undefined;

/** A replacement for one method, given the original. */
export type Replacement = (original: Method, listenerOf: ListenerOf) => Method;

/** The methods to replace on `target` (a ModelResult or its prototype), by the package it comes from. */
export function modelResultReplacements(target: object): ReadonlyMap<string, Replacement> {
  const has = (name: string) => typeof (target as Record<string, unknown>)[name] === 'function';
  if (has('runToolWithHooks')) {
    return new Map<string, Replacement>([
      ['runToolWithHooks', observedRunToolWithHooks],
      ...(has('executeToolRound') ? ([['executeToolRound', answeringUnknownTools(AGENT_ROUND_OUTPUTS)]] as const) : []),
    ]);
  }
  return new Map<string, Replacement>(
    (
      [
        [
          'executeToolRound',
          claimingRound({ callsOf: ROUND_OF_ITS_ARGUMENT, outputs: FUNCTION_CALL_OUTPUTS, searches: 'synchronously' }),
        ],
        [
          'executeAutoApproveTools',
          claimingRound({ callsOf: ROUND_OF_ITS_ARGUMENT, outputs: UNSENT_RESULTS, searches: 'synchronously' }),
        ],
        ['processApprovalDecisions', claimingRound({ callsOf: approvedCallsOf, searches: 'throughout' })],
      ] as const
    ).filter(([name]) => has(name)),
  );
}

/** How one of `@openrouter/sdk`'s methods runs a round of calls. */
interface RoundSpec {
  /** The calls it runs, in order. */
  readonly callsOf: (modelResult: object, args: readonly unknown[]) => readonly unknown[] | undefined;
  /** What it returns, to settle the calls it answered without a tool; none: it sends the answers itself. */
  readonly outputs?: RoundOutputs;
  /** Whether the tools are searched in its synchronous part only (a map over the calls), or all along (a loop with awaits). */
  readonly searches: 'synchronously' | 'throughout';
}

const ROUND_OF_ITS_ARGUMENT = (_modelResult: object, args: readonly unknown[]) =>
  Array.isArray(args[0]) ? (args[0] as unknown[]) : undefined;

/** `@openrouter/sdk`: the round runs as a ClaimingRound, its result settled by it. */
function claimingRound(spec: RoundSpec): Replacement {
  return (original, listenerOf) =>
    function observedRound(this: object, ...args: unknown[]): unknown {
      const listener = listenerOf(this);
      const toolCalls = listener === undefined ? undefined : spec.callsOf(this, args);
      if (listener === undefined || toolCalls === undefined) return Reflect.apply(original, this, args);
      const round = new ClaimingRound(toolCalls.map(toolCallOf), listener, conversationIdOf(this));
      const tools = toolsOf(this);
      let pending: unknown;
      try {
        pending = Reflect.apply(original, round.view(this), args);
      } finally {
        if (spec.searches === 'synchronously') round.close();
      }
      const { outputs } = spec;
      return Promise.resolve(pending).then(
        (result) => {
          round.close();
          return outputs === undefined ? result : round.settle(result, outputs, tools);
        },
        (error: unknown) => {
          round.close();
          throw error;
        },
      );
    };
}

/** The calls `processApprovalDecisions` runs: the pending calls the app approved, in the order it approved them. */
function approvedCallsOf(modelResult: object): readonly unknown[] | undefined {
  try {
    const { approvedToolCalls, currentState } = modelResult as {
      approvedToolCalls?: unknown;
      currentState?: { pendingToolCalls?: unknown } | null;
    };
    const pending = currentState?.pendingToolCalls;
    if (!Array.isArray(approvedToolCalls) || !Array.isArray(pending)) return undefined;
    return approvedToolCalls
      .map((id) => pending.find((call: { id?: unknown } | null) => call?.id === id))
      .filter((call) => call !== undefined);
  } catch {
    return undefined;
  }
}

/** `@openrouter/agent`: each call's own stand-in for its tool, and what the SDK answered without running it. */
function observedRunToolWithHooks(original: Method, listenerOf: ListenerOf): Method {
  return function runToolWithHooks(this: object, ...args: unknown[]): unknown {
    const listener = listenerOf(this);
    const [tool, toolCall, ...rest] = args;
    const call = toolCallOf(toolCall);
    if (listener === undefined || call === undefined || tool === null || typeof tool !== 'object') {
      return Reflect.apply(original, this, args);
    }
    if (executableFunctionOf(tool) === undefined) return Reflect.apply(original, this, args);
    const conversationId = conversationIdOf(this);
    const progress = new CallProgress();
    const standIn = observedTool(tool, call, listener, progress, conversationId);
    const pending = Reflect.apply(original, this, [standIn, toolCall, ...rest]);
    return Promise.resolve(pending).then((outcome) => settledRun(outcome, call, progress, listener, conversationId));
  };
}

interface HookedRun {
  readonly type?: unknown;
  readonly errorMessage?: unknown;
  readonly output?: { readonly output?: unknown };
  readonly result?: { readonly error?: unknown } | null;
}

/** What `runToolWithHooks` returned, once a call the SDK answered without running the tool is observed. */
function settledRun(
  outcome: unknown,
  call: ToolCall,
  progress: CallProgress,
  listener: ToolCallListener<unknown>,
  conversationId: string | undefined,
): unknown {
  const run = outcome as HookedRun | null;
  if (run === null || typeof run !== 'object' || progress.executed) return outcome;
  if (run.type === 'parse_error' && typeof run.errorMessage === 'string') {
    const text = observeBadArguments(listener, call, new SyntaxError(run.errorMessage), conversationId);
    if (text === undefined) return outcome;
    return { ...run, errorMessage: text, output: { ...run.output, output: JSON.stringify({ error: text }) } };
  }
  const error = run.type === 'execution' ? run.result?.error : undefined;
  if (error === undefined || error === null) return outcome;
  const text = progress.validated
    ? observeFailureBeforeRun(listener, call, error, conversationId)
    : observeBadArguments(listener, call, error, conversationId);
  if (text === undefined) return outcome;
  return { ...run, result: { ...run.result, error: new Error(text) } };
}

/** `@openrouter/agent`'s `executeToolRound`: a call to a name no tool has, observed once the round settles. */
function answeringUnknownTools(outputs: RoundOutputs): Replacement {
  return (original, listenerOf) =>
    function observedRound(this: object, ...args: unknown[]): unknown {
      const listener = listenerOf(this);
      const [toolCalls] = args;
      const pending = Reflect.apply(original, this, args);
      if (listener === undefined || !Array.isArray(toolCalls)) return pending;
      const calls = toolCalls.map(toolCallOf).filter((call): call is ToolCall => call !== undefined);
      const tools = toolsOf(this);
      const conversationId = conversationIdOf(this);
      return Promise.resolve(pending).then((result) => {
        let answered = result;
        for (const call of calls) {
          if (!isUnknownName(tools, call.name)) continue;
          const text = observeUnknownTool(listener, call, conversationId);
          if (text !== undefined && call.id !== undefined) answered = outputs.withAnswer(answered, call, text, calls);
        }
        return answered;
      });
    };
}
