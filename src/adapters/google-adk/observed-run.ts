import { forwardingObject } from '../../internal/forwarding-object.js';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import { toolNameOf } from '../../internal/tool-name.js';
import { executeToolSpanName } from '../../otel/tool-span.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition, ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_GOOGLE_ADK } from '../frameworks.js';

/** The parts of an ADK tool (`BaseTool`) and of its call's `Context` read here. */
interface AdkTool {
  readonly name?: unknown;
  readonly description?: unknown;
  readonly parameters?: unknown;
  runAsync?: unknown;
}
interface AdkToolContext {
  readonly functionCallId?: unknown;
  readonly abortSignal?: unknown;
  /** A getter on ADK's Context: the runner's session. */
  readonly sessionId?: unknown;
}
interface RunRequest {
  readonly args?: unknown;
  readonly toolContext?: AdkToolContext;
}
type RunAsync = (this: unknown, request: RunRequest) => Promise<unknown>;

/** A call the plugin saw in `beforeToolCallback`, until ADK is done with it. */
interface ArmedCall {
  readonly listener: ToolCallListener<unknown>;
  /** The listener's text for the failure, once it reported one: the plugin's error response. */
  reported?: string;
}

/*
 * Where the hook sits. ADK runs a tool call as: the plugins' `beforeToolCallback`, then
 * `callToolAsync`, which opens ADK's own `execute_tool {tool}` span and calls `tool.runAsync` in it
 * (attributes set on it only after a success), then `onToolErrorCallback` (outside that span, after
 * it ended) or `afterToolCallback`. The plugin has no hook inside ADK's span, so the tool's
 * `runAsync` is observed on the instance (ADK runs the tool object of the agent's own list: no
 * stand-in can be handed to it). The observed `runAsync` observes a call only when a plugin armed
 * it (by its `toolContext`, one object per call): run by a runner without the plugin, or called
 * directly, the tool does exactly what it did.
 */
const armed = new WeakMap<object, ArmedCall>();

/** Arms the call of `toolContext` for `listener`, the tool's `runAsync` observed; false if it cannot be. */
export function armCall(tool: unknown, toolContext: unknown, listener: ToolCallListener<unknown>): boolean {
  if (toolContext === null || typeof toolContext !== 'object') return false;
  if (!observeRunAsync(tool)) return false;
  // a second plugin of this package in the same runner: the call is observed once, by the first
  if (!armed.has(toolContext)) armed.set(toolContext, { listener });
  return true;
}

/** The text the listener reported for the call of `toolContext`, if it reported its failure; the call is done. */
export function finishCall(toolContext: unknown): string | undefined {
  if (toolContext === null || typeof toolContext !== 'object') return undefined;
  const call = armed.get(toolContext);
  armed.delete(toolContext);
  return call?.reported;
}

const EMPTY_METADATA: ToolMetadata = Object.freeze({});
const warned = new WeakSet<object>();
const standIns = new WeakMap<object, object>();

/**
 * A tool whose `runAsync` cannot be replaced on it (frozen, sealed, not extensible) is observed
 * through a stand-in instead, without being changed: ADK looks each called tool up in the model
 * request's `toolsDict` (`llmRequest.toolsDict`, built for each request, ADK's own object), and the
 * plugin's `beforeModelCallback` puts there a stand-in (forwarding-object.ts) whose `runAsync` is
 * observed and runs the tool's own on the tool. So ADK calls it inside its own span, as for any tool.
 */
export function standInsInRequest(llmRequest: unknown): void {
  try {
    const toolsDict = (llmRequest as { toolsDict?: unknown } | null | undefined)?.toolsDict;
    if (toolsDict === null || typeof toolsDict !== 'object') return;
    for (const [name, tool] of Object.entries(toolsDict as Record<string, unknown>)) {
      const standIn = standInFor(tool);
      if (standIn !== undefined) (toolsDict as Record<string, unknown>)[name] = standIn;
    }
  } catch {
    // a request of another shape: its frozen tools stay unobserved (observeRunAsync says so)
  }
}

function standInFor(tool: unknown): object | undefined {
  if (tool === null || typeof tool !== 'object' || Object.isExtensible(tool)) return undefined;
  let standIn = standIns.get(tool);
  if (standIn === undefined) {
    const original = (tool as AdkTool).runAsync;
    if (typeof original !== 'function' || isObserved(original)) return undefined;
    const observed = markObserved(observedRunAsync(tool as AdkTool, original as RunAsync));
    standIn = forwardingObject(tool, new Map([['runAsync', observed]]));
    standIns.set(tool, standIn);
  }
  return standIn;
}

function observeRunAsync(tool: unknown): boolean {
  if (tool === null || typeof tool !== 'object') return false;
  const adkTool = tool as AdkTool;
  try {
    const original = adkTool.runAsync;
    if (typeof original !== 'function') return false;
    if (isObserved(original)) return true;
    const observed = markObserved(observedRunAsync(adkTool, original as RunAsync));
    // an own property, as a class field would be: the prototype (every other tool) is left alone
    if (Reflect.defineProperty(tool, 'runAsync', { value: observed, writable: true, configurable: true })) return true;
  } catch {
    // a tool whose reads throw, or a Proxy that refuses the property: not observed, still run
  }
  if (!warned.has(tool)) {
    warned.add(tool);
    logger.warn(
      `Google ADK tool '${toolNameOf(adkTool as ToolDefinition)}': not observed (its runAsync cannot be replaced: frozen?)`,
    );
  }
  return false;
}

function observedRunAsync(tool: AdkTool, original: RunAsync): RunAsync {
  return function runAsync(request: RunRequest): Promise<unknown> {
    const toolContext = request?.toolContext;
    const call = toolContext !== null && typeof toolContext === 'object' ? armed.get(toolContext) : undefined;
    // on the tool itself: the patched tool, or the original of a stand-in (standInsInRequest)
    if (call === undefined) return Reflect.apply(original, tool, [request]) as Promise<unknown>;
    const definition: ToolDefinition = {
      name: toolNameOf(tool as ToolDefinition),
      description: typeof tool.description === 'string' ? tool.description : undefined,
      inputSchema: tool.parameters,
    };
    let failed: { readonly error: unknown } | undefined;
    return observeCall(
      {
        definition,
        metadata: EMPTY_METADATA,
        input: request.args,
        toolContext: {
          toolCallId: typeof toolContext?.functionCallId === 'string' ? toolContext.functionCallId : undefined,
          signal: toolContext?.abortSignal instanceof AbortSignal ? toolContext.abortSignal : undefined,
          framework: FRAMEWORK_GOOGLE_ADK,
          conversationId: sessionIdOf(toolContext),
          // ADK names its span so when it starts, and attributes it after a success only
          foreignSpan: { scope: 'gcp.vertex.agent', name: executeToolSpanName(definition.name) },
        },
        // as ADK calls it: on the tool itself
        run: async () => {
          try {
            return await Reflect.apply(original, tool, [request]);
          } catch (error) {
            failed = { error };
            throw error;
          }
        },
        // ADK still sees the failure (its error path, the other plugins' onToolErrorCallback); the
        // plugin's onToolErrorCallback answers with the listener's text (tool-calls-plugin.ts)
        report: (text) => {
          // the tool returned, and a listener's afterCall failed: the text is the result
          if (failed === undefined) return text;
          call.reported = text;
          throw failed.error;
        },
      },
      call.listener,
    );
  };
}

/** The session the runner runs (`gen_ai.conversation.id`); none when the context cannot tell it. */
function sessionIdOf(toolContext: AdkToolContext | undefined): string | undefined {
  try {
    const id = toolContext?.sessionId;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    // a context of another shape, whose getter throws: no conversation
    return undefined;
  }
}
