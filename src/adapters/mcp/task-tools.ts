import { deferred } from '../../internal/deferred.js';
import { forwardingObject } from '../../internal/forwarding-object.js';

/*
 * Task-based tools (SDK 1.x `experimental.tasks.registerToolTask`): the handler is an object
 * `{ createTask, getTask, getTaskResult }`. McpServer calls `createTask(args, taskExtra)` (a copy of
 * the request's `extra` with the task store; its `signal` is the request's) and answers the
 * `tools/call` with what the task gives: for a request without task augmentation it polls the task
 * until it ends and answers with its result (an `isError` result when the tool failed); a
 * task-augmented request is answered with the task created.
 *
 * The call is observed from `createTask` to that answer: `createTask` runs inside the call (its
 * spans are the call's children) and hands McpServer what it returned, unchanged; the call settles
 * with McpServer's answer to the `tools/call`, which the `tools/call` handler's watcher
 * (rejected-requests.ts) passes here (`settleTaskCall`). So a task tool's `isError` answer is a
 * failed tool call (`tool_error`), as a normal tool's is, and never a refusal: the tool ran.
 */

interface PendingTaskCall {
  /** Settles the call with McpServer's answer; returns what the client gets (the answer, or the listener's report). */
  settle(answer: unknown, thrown: boolean): Promise<unknown>;
}

/** The task calls whose `tools/call` is not answered yet, by the request's signal (shared by `extra` and `taskExtra`). */
const pending = new WeakMap<object, PendingTaskCall>();

type CreateTask = (this: unknown, ...params: unknown[]) => unknown;

/**
 * `handler` with `createTask` observed: `observe(params, run)` observes the call (as a normal tool's
 * handler is observed) whose outcome is `run()`'s, a promise of McpServer's answer.
 */
export function observedTaskHandler(
  handler: object,
  observe: (params: unknown[], run: () => Promise<unknown>) => unknown,
): object {
  const createTask = (handler as { createTask?: unknown }).createTask;
  if (typeof createTask !== 'function') return handler;
  const observedCreateTask = function observedCreateTask(this: unknown, ...params: unknown[]) {
    const signal = signalOf(params[params.length - 1]);
    if (signal === undefined) return (createTask as CreateTask).apply(handler, params);
    let created: unknown;
    const answer = deferred<unknown>();
    const observed = Promise.resolve(
      observe(params, () => {
        created = (createTask as CreateTask).apply(handler, params);
        return answer.promise;
      }),
    );
    pending.set(signal, {
      settle(value, thrown) {
        pending.delete(signal);
        if (thrown) answer.reject(value);
        else answer.resolve(value);
        return observed;
      },
    });
    return created;
  };
  return forwardingObject(handler, new Map([['createTask', observedCreateTask]]));
}

/**
 * McpServer's answer to a `tools/call` whose task tool was created (`extra` is what the `tools/call`
 * handler got): what the client gets. `undefined` when the request was no task call.
 */
export function settleTaskCall(extra: unknown, answer: unknown, thrown: boolean): Promise<unknown> | undefined {
  const signal = signalOf(extra);
  const call = signal === undefined ? undefined : pending.get(signal);
  return call?.settle(answer, thrown);
}

function signalOf(extra: unknown): object | undefined {
  try {
    const signal = (extra as { signal?: unknown } | null | undefined)?.signal;
    return signal instanceof AbortSignal ? signal : undefined;
  } catch {
    return undefined;
  }
}
