import { takesDecisions } from '../../internal/takes-decisions.js';
import { tellDecision } from '../../internal/tell-decision.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_OPENAI_AGENTS } from '../frameworks.js';

/*
 * The OpenAI Agents SDK's tool approvals as decisions (`ToolCallListener.onDecision`). The runner asks
 * a function tool's `needsApproval(runContext, input, callId)` before running a call: true, and the
 * run stops with the call among its interruptions (no `invoke`). The app answers on the run's state,
 * `state.approve(item)` / `state.reject(item)`, which record the answer on the run context
 * (`approveTool` / `rejectTool`), then resumes the run: an approved call runs, a rejected one is
 * answered to the model without running. So `require_approval` is seen where the runner asks (the
 * stand-in's `needsApproval`), once per call; the answer where it is recorded: the run context that
 * asked gets its `approveTool` / `rejectTool` observed on the instance (the SDK's own methods run as
 * they are), the answer then carrying the wait since the question. A run state restored in another
 * process (`RunState.fromString`) has a context this side never armed: its answers are not seen.
 * The SDK takes a `needsApproval` it did not make for a dynamic policy: it keeps a pending record of
 * each call until the call has run, may ask again before an approved call runs (told once), and stops
 * for approval of a call whose arguments are not JSON without asking (nothing told); a `true` policy
 * would answer that call's parse error at once. So the stand-in is made only for a listener that takes
 * decisions (takes-decisions.ts).
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

/** Per run context the calls it was asked about, by call id: dropped with the context (its run). */
const askedOn = new WeakMap<object, Map<string, Asked>>();

/**
 * A `needsApproval` that tells `require_approval` when the runner asks about a call for the first
 * time and the answer is yes; the tool's own answer, returned as it is. None when the tool has no
 * `needsApproval` function, or the listener takes no decisions (the tool keeps its own).
 */
export function observedNeedsApproval(
  toolName: string,
  tool: object,
  listener: ToolCallListener<unknown>,
  conversationIdNow: () => string | undefined,
): NeedsApproval | undefined {
  const given: unknown = (tool as { needsApproval?: unknown }).needsApproval;
  if (typeof given !== 'function' || !takesDecisions(listener)) return undefined;
  // as the runner calls it, on the original tool
  return async function needsApproval(runContext, input, callId) {
    const needed = await Reflect.apply(given as NeedsApproval, tool, [runContext, input, callId]);
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

/** The questions asked on `runContext`, its answers observed from the first question on. */
function questionsOf(runContext: object, listener: ToolCallListener<unknown>): Map<string, Asked> {
  let asked = askedOn.get(runContext);
  if (asked === undefined) {
    asked = new Map();
    askedOn.set(runContext, asked);
    observeAnswer(runContext, 'approveTool', 'allow', asked, listener);
    observeAnswer(runContext, 'rejectTool', 'deny', asked, listener);
  }
  return asked;
}

/** `runContext[method]` as an own property that tells `outcome` for a call asked about here, then records it. */
function observeAnswer(
  runContext: object,
  method: 'approveTool' | 'rejectTool',
  outcome: 'allow' | 'deny',
  asked: Map<string, Asked>,
  listener: ToolCallListener<unknown>,
): void {
  const original = (runContext as Record<string, unknown>)[method];
  if (typeof original !== 'function') return;
  const answer: Answer = function answer(this: unknown, item, options) {
    const returned = Reflect.apply(original, this, [item, options]);
    const callId = (item as { rawItem?: { callId?: unknown } } | null)?.rawItem?.callId;
    const question = typeof callId === 'string' ? asked.get(callId) : undefined;
    if (question !== undefined && !question.answered && typeof callId === 'string') {
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
