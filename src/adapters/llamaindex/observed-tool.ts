import type { BaseTool } from '@llamaindex/core/llms';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition } from '../../tool-callback.js';
import { FRAMEWORK_LLAMAINDEX } from '../frameworks.js';

// biome-ignore lint/suspicious/noExplicitAny: a tool's input type is contravariant (call's parameter)
export type AnyTool = BaseTool<any>;
type ToolCall = (this: unknown, input: unknown) => unknown;

/** A LlamaIndex tool: a `call` function and `metadata.name`; a getter that throws makes it none. */
export function isCallableTool(tool: unknown): tool is AnyTool {
  try {
    return (
      tool !== null &&
      typeof tool === 'object' &&
      typeof (tool as AnyTool).call === 'function' &&
      typeof (tool as AnyTool).metadata?.name === 'string'
    );
  } catch {
    return false; // a getter that throws: not a tool this adapter can describe
  }
}

/*
 * Observed in place, through a stand-in (`forwardingObject`) whose `call` is observed: LlamaIndex
 * reads `tool.call` and calls it with the tool as `this` (`call.call(tool, input)`), so the stand-in's
 * runs, and it runs the original's `call` with the original as `this`. A copy of a `FunctionTool`
 * would throw on `metadata` (a getter over `#metadata`), which every agent reads to find the tool.
 * `bind` (a new `FunctionTool` with an extra argument) is replaced too, so that the bound tool is
 * observed as the tool it came from. `callIdOf` gives the model's id for a call, from its input.
 */
export function observedTool<T extends AnyTool>(
  tool: T,
  listener: ToolCallListener<unknown>,
  callIdOf: (input: unknown) => string | undefined,
): T {
  const { metadata } = tool;
  const definition: ToolDefinition = {
    name: metadata.name,
    description: metadata.description,
    inputSchema: metadata.parameters,
  };
  const call: ToolCall = (input) => {
    // read on the original at each call, as LlamaIndex does (`tool.call`), and run on it
    const original = (tool as { call: ToolCall }).call;
    return observeCall(
      {
        definition,
        metadata: {},
        input,
        toolContext: { toolCallId: callIdOf(input), framework: FRAMEWORK_LLAMAINDEX },
        run: () => Reflect.apply(original, tool, [input]),
        // the agent hands the tool's output to the model as the tool result
        report: (text) => text,
      },
      listener,
    );
  };
  const replaced = new Map<string, unknown>([['call', markObserved(call)]]);
  const { bind } = tool as { bind?: unknown };
  if (typeof bind === 'function') {
    replaced.set('bind', (...args: unknown[]) => {
      const bound = Reflect.apply(bind, tool, args) as unknown;
      return isCallableTool(bound) ? observedTool(bound, listener, callIdOf) : bound;
    });
  }
  return forwardingObject(tool, replaced);
}
