import { logger } from '../../internal/logger.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe, hasMethods } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { type AgentRunObjects, hasRunSeam, onAgentRuns } from './agent-seam.js';
import { type ObservedRun, observeRun } from './loop-run.js';

/**
 * Observes every tool call of a pi `Agent` (`@mariozechner/pi-agent-core`; `pi-coding-agent`'s
 * `session.agent`), in place, from its next run on: the tools of each run (whatever `state.tools`
 * holds then), one `execute_tool` span per call with the model's call id, the agent's `sessionId` as
 * the conversation id, and the calls the loop answers itself (a tool it does not have, arguments the
 * schema refuses) as the model's mistakes. Returns the same agent; its state, its tools and its hooks
 * are not changed. An agent already instrumented is returned as it is.
 *
 * @example
 * const agent = instrumentAgent(new Agent({ initialState: { model, tools } }), listener);
 * await agent.prompt('What is the weather in Oslo?');
 */
export function instrumentAgent<A extends object, Context = unknown>(agent: A, listener: ToolCallListener<Context>): A {
  if (!hasMethods(agent, ['subscribe', 'prompt'])) {
    throw new TypeError(
      `instrumentAgent: \`agent\` must be an Agent of @mariozechner/pi-agent-core (subscribe, prompt), got ${describe(agent)}`,
    );
  }
  assertListener(listener, 'instrumentAgent');
  if (isObserved(agent)) {
    logger.warn('instrumentAgent: this Agent is already instrumented; the new listener is ignored');
    return agent;
  }
  if (!hasRunSeam(agent)) {
    logger.warn(
      'instrumentAgent: this Agent does not start its runs as @mariozechner/pi-agent-core 0.73 does; its tool calls are not observed',
    );
    return agent;
  }
  const observing = listener as ToolCallListener<unknown>;
  let current: ObservedRun | undefined;
  try {
    onAgentRuns(agent, observeEachRun);
    // runs of one agent never overlap (`prompt()` refuses while one is active): events go to the current one
    (agent as unknown as { subscribe(listener: (event: unknown) => void): unknown }).subscribe((event) =>
      current?.onEvent(event),
    );
  } catch (error) {
    // an agent that takes no new property (not extensible), or a subscribe of another shape: the app goes on unobserved
    logger.error('instrumentAgent: this Agent could not be instrumented; its tool calls are not observed', error);
    return agent;
  }
  return markObserved(agent);

  function observeEachRun({ snapshot, config }: AgentRunObjects): void {
    try {
      current = observeRun(observing, {
        tools: snapshot.tools,
        beforeToolCall: config.beforeToolCall,
        config,
        sessionId: config.sessionId,
      });
      snapshot.tools = current.tools;
      config.beforeToolCall = current.beforeToolCall;
      // so that zero-code, patching the loop too, leaves this run to the agent's listener
      markObserved(snapshot);
    } catch (error) {
      current = undefined;
      logger.error("instrumentAgent: this run's tool calls are not observed", error);
    }
  }
}
