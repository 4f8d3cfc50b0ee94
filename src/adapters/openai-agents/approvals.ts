import { takesDecisions } from '../../internal/takes-decisions.js';
import { tellDecision } from '../../internal/tell-decision.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_OPENAI_AGENTS } from '../frameworks.js';
import { constantPolicyAnswer } from './constant-policy.js';

/*
 * The OpenAI Agents SDK's tool approvals as decisions (`ToolCallListener.onDecision`). The runner asks
 * a function tool's `needsApproval(runContext, input, callId)` before running a call: true, and the
 * run stops with the call among its interruptions (no `invoke`). The app answers on the run's state,
 * `state.approve(item)` / `state.reject(item)`, which record the answer on the run context
 * (`approveTool` / `rejectTool`), then resumes the run: an approved call runs, a rejected one is
 * answered to the model without running. So `require_approval` is seen where the runner asks (the
 * stand-in's `needsApproval`), once per call and listener; the answer where it is recorded: the run
 * context that asked gets its `approveTool` / `rejectTool` observed on the instance (the SDK's own
 * methods run as they are), the answer then told to each listener that asked, with the wait since
 * its question. A run state restored in another process (`RunState.fromString`) has a context this
 * side never armed: its answers are not seen.
 * The SDK takes a `needsApproval` it did not make for a dynamic policy: it keeps a pending record of
 * each call until the call has run, may ask again before an approved call runs (told once), and stops
 * for approval of a call whose arguments are not JSON without asking (nothing told); its own constant
 * policy would answer that call's parse error at once. So the stand-in is made only for a listener
 * that takes decisions (takes-decisions.ts), and only for a tool that has a policy: one the app wrote
 * (a function, which the runner treats as dynamic anyway) or `needsApproval: true`. A tool with none
 * (`needsApproval` unset or `false`: the SDK's constant policy answering false) keeps its own.
 */

type NeedsApproval = (runContext: unknown, input: unknown, callId: unknown) => unknown;
type Answer = (this: unknown, item: unknown, options?: unknown) => unknown;

/** A question this process asked on a run context, until it is answered. */
interface Asked {
  readonly toolName: string;
  readonly conversationId: string | undefined;
  readonly at: number;
  answered: boolean;
}

/** A listener's questions on one run context, by call id. */
type Questions = Map<string, Asked>;

/**
 * Per run context the calls each listener was asked about: dropped with the context (its run). Per
 * listener, so that a tool observed by two listeners tells each the question and the answer.
 */
const askedOn = new WeakMap<object, Map<ToolCallListener<unknown>, Questions>>();

/** What the stand-in's `needsApproval` is. */
export type ApprovalStandIn =
  /** The tool's own, read on the tool: a listener that takes no decisions, or no policy function. */
  | { readonly kind: 'own' }
  /** Observed at once: a policy the app wrote (the runner treats it as dynamic with or without the stand-in). */
  | { readonly kind: 'observed'; readonly needsApproval: NeedsApproval }
  /**
   * The SDK's constant policy: the tool's own until its answer is known (a microtask), then observed
   * when it is true (`needsApproval: true`), the tool's own for good when it is false (no policy).
   */
  | {
      readonly kind: 'constant';
      readonly own: unknown;
      readonly answer: Promise<unknown>;
      readonly needsApproval: NeedsApproval;
    };

/**
 * How a stand-in for `tool` answers `needsApproval` for `listener`; `sdkTool` is the SDK's `tool()`,
 * which tells its constant policies (constant-policy.ts).
 */
export function approvalStandIn(
  toolName: string,
  tool: object,
  listener: ToolCallListener<unknown>,
  conversationIdNow: () => string | undefined,
  sdkTool: unknown,
): ApprovalStandIn {
  const own: unknown = (tool as { needsApproval?: unknown }).needsApproval;
  if (typeof own !== 'function' || !takesDecisions(listener)) return { kind: 'own' };
  const needsApproval = observedNeedsApproval(toolName, tool, listener, conversationIdNow);
  const answer = constantPolicyAnswer(own, sdkTool);
  return answer === undefined ? { kind: 'observed', needsApproval } : { kind: 'constant', own, answer, needsApproval };
}

/**
 * A `needsApproval` that tells `require_approval` when the runner asks about a call for the first
 * time and the answer is yes; the tool's own answer, returned as it is. The tool's own is read when
 * the runner asks (the tool may be another stand-in, whose own changes once its policy is known).
 */
function observedNeedsApproval(
  toolName: string,
  tool: object,
  listener: ToolCallListener<unknown>,
  conversationIdNow: () => string | undefined,
): NeedsApproval {
  // as the runner calls it, on the original tool
  return async function needsApproval(runContext, input, callId) {
    const own = (tool as { needsApproval?: unknown }).needsApproval as NeedsApproval;
    const needed = await Reflect.apply(own, tool, [runContext, input, callId]);
    if (needed === true && typeof callId === 'string' && runContext !== null && typeof runContext === 'object') {
      const asked = questionsOf(runContext, listener);
      if (!asked.has(callId)) {
        const conversationId = conversationIdNow();
        asked.set(callId, { toolName, conversationId, at: performance.now(), answered: false });
        tellDecision(listener, {
          toolName,
          outcome: 'require_approval',
          toolCallId: callId,
          framework: FRAMEWORK_OPENAI_AGENTS,
          conversationId,
        });
      }
    }
    return needed;
  };
}

/** `listener`'s questions on `runContext`, its answers observed from the first question on. */
function questionsOf(runContext: object, listener: ToolCallListener<unknown>): Questions {
  let listeners = askedOn.get(runContext);
  if (listeners === undefined) {
    const all = new Map<ToolCallListener<unknown>, Questions>();
    listeners = all;
    askedOn.set(runContext, all);
    observeAnswer(runContext, 'approveTool', 'allow', all);
    observeAnswer(runContext, 'rejectTool', 'deny', all);
  }
  let asked = listeners.get(listener);
  if (asked === undefined) {
    asked = new Map();
    listeners.set(listener, asked);
  }
  return asked;
}

/** `runContext[method]` as an own property that tells `outcome` to each listener asked about the call, then records it. */
function observeAnswer(
  runContext: object,
  method: 'approveTool' | 'rejectTool',
  outcome: 'allow' | 'deny',
  listeners: ReadonlyMap<ToolCallListener<unknown>, Questions>,
): void {
  const original = (runContext as Record<string, unknown>)[method];
  if (typeof original !== 'function') return;
  const answer: Answer = function answer(this: unknown, item, options) {
    const returned = Reflect.apply(original, this, [item, options]);
    const callId = (item as { rawItem?: { callId?: unknown } } | null)?.rawItem?.callId;
    if (typeof callId !== 'string') return returned;
    for (const [listener, asked] of listeners) {
      const question = asked.get(callId);
      if (question === undefined || question.answered) continue;
      question.answered = true;
      tellDecision(listener, {
        toolName: question.toolName,
        outcome,
        toolCallId: callId,
        framework: FRAMEWORK_OPENAI_AGENTS,
        conversationId: question.conversationId,
        waitSeconds: (performance.now() - question.at) / 1000,
      });
    }
    return returned;
  };
  try {
    // not enumerable: the context's own JSON (toJSON) and a copy of it stay as they were
    Object.defineProperty(runContext, method, { value: answer, configurable: true, writable: true, enumerable: false });
  } catch {
    // a frozen context: its answers are not seen
  }
}
