/*
 * What an `Agent` of @mariozechner/pi-agent-core keeps private, and the one place this package reads
 * it. Each `prompt()` and `continue()` starts one run of the loop with
 * `runAgentLoop(messages, this.createContextSnapshot(), this.createLoopConfig(options), emit, …)`
 * (`runAgentLoopContinue` alike): two methods of the prototype, called in that order, each making a
 * fresh object of pi's for that run alone (`{ systemPrompt, messages, tools }`, the tools a copy of
 * `state.tools`; the config, with the agent's `beforeToolCall` and `sessionId`). They are patched on
 * the instance: the run's objects are handed to `observe` before the loop gets them, and the agent
 * itself, its state and the app's tools are not changed. Checked on 0.73.
 */

/** A run's context snapshot and loop config, pi's own objects for that run. */
export interface AgentRunObjects {
  readonly snapshot: Record<string, unknown>;
  readonly config: Record<string, unknown>;
}

interface AgentInternals {
  createContextSnapshot?: unknown;
  createLoopConfig?: unknown;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Whether `agent` starts its runs as this seam knows (the methods it patches are there). */
export function hasRunSeam(agent: object): boolean {
  const internals = agent as AgentInternals;
  return typeof internals.createContextSnapshot === 'function' && typeof internals.createLoopConfig === 'function';
}

/**
 * Calls `observe` with each run's snapshot and config, before the loop gets them (it may change them:
 * they are pi's, made for that run). `observe` must not throw.
 */
export function onAgentRuns(agent: object, observe: (run: AgentRunObjects) => void): void {
  const internals = agent as AgentInternals;
  const createContextSnapshot = internals.createContextSnapshot as Method;
  const createLoopConfig = internals.createLoopConfig as Method;
  let snapshot: Record<string, unknown> | undefined;
  patchMethod(agent, 'createContextSnapshot', function createContextSnapshot_(this: unknown, ...args: unknown[]) {
    const made = Reflect.apply(createContextSnapshot, this, args);
    snapshot = made !== null && typeof made === 'object' ? (made as Record<string, unknown>) : undefined;
    return made;
  });
  patchMethod(agent, 'createLoopConfig', function createLoopConfig_(this: unknown, ...args: unknown[]) {
    const config = Reflect.apply(createLoopConfig, this, args);
    // the snapshot of the same run: the loop is given both in one expression, snapshot first
    if (snapshot !== undefined && config !== null && typeof config === 'object') {
      observe({ snapshot, config: config as Record<string, unknown> });
    }
    snapshot = undefined;
    return config;
  });
}

/** On the instance, as the prototype's method is: not enumerable (a spread or `Object.keys` of the agent is unchanged). */
function patchMethod(agent: object, name: string, method: Method): void {
  Object.defineProperty(agent, name, { value: method, writable: true, configurable: true, enumerable: false });
}
