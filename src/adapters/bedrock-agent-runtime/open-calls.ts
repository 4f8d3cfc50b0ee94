import { deferred } from '../../internal/deferred.js';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_BEDROCK_AGENT_RUNTIME } from '../frameworks.js';
import { answers, type InvocationInput, type InvocationResult } from './return-control.js';

/*
 * The calls a return of control handed the app and it has not answered yet, per session, one
 * registry per listener (a session's next request may come from another client of the app). Each is
 * one observed call whose `run` is a Promise the app's answer settles:
 * - the session's next request sends a result for it (same action group and function): the call
 *   ends, failed when `responseState` is `FAILURE` (its body the error's message);
 * - that request answers not it (the app went on without an answer, or ended the session with
 *   `endSession`): it ends, failed as unanswered;
 * - no request of its session comes within an hour (UNANSWERED_AFTER_MS, the longest a Bedrock agent
 *   keeps an idle session: no answer can come later): it ends, failed as unanswered.
 * The registry keeps MAX_SESSIONS sessions with open calls at most: the oldest's calls end as unanswered.
 */

/** A call whose result the app sent with `responseState: 'FAILURE'`; its message is the result's body. */
export class ReturnControlFailureError extends Error {
  override readonly name = 'ReturnControlFailureError' as const;
}

/** A call the app never answered: its session went on, or ended, without its result. */
export class ReturnControlUnansweredError extends Error {
  override readonly name = 'ReturnControlUnansweredError' as const;
}

/** How long a call may wait for its answer: the longest idle time of a Bedrock agent session (3,600 s). */
export const UNANSWERED_AFTER_MS = 3_600_000;
const MAX_SESSIONS = 1024;
const NO_METADATA: ToolMetadata = Object.freeze({});

interface OpenCall {
  readonly input: InvocationInput;
  readonly invocationId: string | undefined;
  settle(result: InvocationResult | undefined, why: string): void;
}

const registries = new WeakMap<object, OpenCalls>();

/** The open calls of `listener`'s observations. */
export function openCallsOf(listener: ToolCallListener<unknown>): OpenCalls {
  let registry = registries.get(listener);
  if (registry === undefined) {
    registry = new OpenCalls(listener);
    registries.set(listener, registry);
  }
  return registry;
}

export class OpenCalls {
  /** Sessions with open calls, oldest first. */
  private readonly sessions = new Map<string, OpenCall[]>();

  constructor(private readonly listener: ToolCallListener<unknown>) {}

  /** Observes each call of a `returnControl` event, from now until it is answered. */
  open(
    sessionKey: string,
    sessionId: string,
    invocationId: string | undefined,
    inputs: readonly InvocationInput[],
  ): void {
    if (inputs.length === 0) return;
    let calls = this.sessions.get(sessionKey);
    if (calls === undefined) {
      calls = [];
      this.sessions.set(sessionKey, calls);
      this.keepBounded();
    }
    for (const input of inputs) {
      const call = this.observe(sessionKey, sessionId, invocationId, input);
      if (call !== undefined) calls.push(call);
    }
  }

  /** A request of the session: each open call it answers ends with its result, the others unanswered. */
  answer(
    sessionKey: string,
    invocationId: string | undefined,
    results: readonly InvocationResult[],
    endSession: boolean,
  ): void {
    const calls = this.sessions.get(sessionKey);
    if (calls === undefined) return;
    this.sessions.delete(sessionKey);
    const unmatched = [...results];
    for (const call of calls) {
      const sameInvocation =
        invocationId === undefined || call.invocationId === undefined || invocationId === call.invocationId;
      const index = sameInvocation ? unmatched.findIndex((result) => answers(result, call.input)) : -1;
      if (index === -1) {
        call.settle(
          undefined,
          endSession ? 'the app ended the session without its result' : 'the session went on without its result',
        );
        continue;
      }
      const [result] = unmatched.splice(index, 1);
      call.settle(result, '');
    }
  }

  private keepBounded(): void {
    while (this.sessions.size > MAX_SESSIONS) {
      const [oldest, calls] = this.sessions.entries().next().value as [string, OpenCall[]];
      this.sessions.delete(oldest);
      for (const call of calls) call.settle(undefined, 'too many sessions with open calls: the oldest is let go');
    }
  }

  private observe(
    sessionKey: string,
    sessionId: string,
    invocationId: string | undefined,
    input: InvocationInput,
  ): OpenCall | undefined {
    const outcome = deferred<unknown>();
    let settled = false;
    const timer = setTimeout(() => call.settle(undefined, 'no answer within an hour'), UNANSWERED_AFTER_MS);
    timer.unref?.();
    const call: OpenCall = {
      input,
      invocationId,
      settle: (result, why) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.forget(sessionKey, call);
        if (result === undefined) outcome.reject(new ReturnControlUnansweredError(`Unanswered: ${why}`));
        else if (result.failed) outcome.reject(new ReturnControlFailureError(result.text ?? 'FAILURE'));
        else outcome.resolve(result.responseBody);
      },
    };
    try {
      const observed = observeCall<Promise<unknown>, string, unknown>(
        {
          definition: { name: input.name },
          metadata: NO_METADATA,
          input: input.input,
          toolContext: {
            toolCallId: invocationId,
            framework: FRAMEWORK_BEDROCK_AGENT_RUNTIME,
            conversationId: sessionId,
          },
          run: () => outcome.promise,
          // the app answers the agent itself: what the listener would report has no one to go to
          report: (text) => text,
        },
        this.listener,
      );
      // a rethrown failure has no caller either: the app already sent (or never sent) its answer
      Promise.resolve(observed).catch(() => {});
    } catch (error) {
      settled = true;
      clearTimeout(timer);
      logger.error('a Bedrock agent call handed to the app could not be observed', error);
      return undefined;
    }
    return call;
  }

  /** A call that ended by its timer leaves its session's list. */
  private forget(sessionKey: string, call: OpenCall): void {
    const calls = this.sessions.get(sessionKey);
    if (calls === undefined) return;
    const index = calls.indexOf(call);
    if (index !== -1) calls.splice(index, 1);
    if (calls.length === 0) this.sessions.delete(sessionKey);
  }
}
