import type { BetaRunnableTool, BetaToolRunContext } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import { toolNameOf } from '../../internal/tool-name.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition } from '../../tool-callback.js';
import { FRAMEWORK_ANTHROPIC } from '../frameworks.js';

// biome-ignore lint/suspicious/noExplicitAny: a tool's input type is contravariant (run's parameter)
export type AnyRunnableTool = BetaRunnableTool<any>;
type RunArguments = Parameters<AnyRunnableTool['run']>;

/** The SDK's `ToolError` for a text: what makes the runner send that text with `is_error: true`. */
export type ToolErrorOf = (text: string) => Error;

/** What the runner runs: it keeps a tool of `params.tools` when it has `run` and `name` (BetaToolRunner). */
export function isRunnableTool(tool: unknown): tool is AnyRunnableTool {
  try {
    return (
      tool !== null &&
      typeof tool === 'object' &&
      typeof (tool as { run?: unknown }).run === 'function' &&
      'name' in tool
    );
  } catch {
    return false;
  }
}

/** Whether `tool`'s `run` is already observed by this package (a wrapped tool). */
export function isObservedTool(tool: AnyRunnableTool): boolean {
  return isObserved(tool.run);
}

/*
 * Only types of the SDK here: the zero-code patch uses this file with the SDK's own ToolError class.
 * Where the hook sits: `run(input, { toolUse, signal })`, which the runner calls (as a method) inside
 * its own `anthropic.custom_tool_use {tool}` span once `parse` accepted the input. That span is an
 * `execute_tool` span with the `tool_use` id: the listener joins it (outer-tool-call.ts), so a call
 * is one span. What the runner does with the outcome:
 * - `run` returns: the `tool_result` the model gets;
 * - `run` throws: the runner sends `is_error: true` with a `ToolError`'s content, or `Error: <message>`.
 * "rethrow" keeps that exactly; "report" throws a `ToolError` with the listener's text, so that the
 * model gets that text as an `is_error: true` result (a string returned would read as a success).
 */
export function observedTool<T extends AnyRunnableTool>(
  tool: T,
  listener: ToolCallListener<unknown>,
  toolError: ToolErrorOf,
): T {
  const original = tool.run;
  const toolName = toolNameOf(tool as ToolDefinition);
  const definition: ToolDefinition = {
    name: toolName,
    description: readSafely(() => (tool as { description?: string }).description),
    inputSchema: readSafely(() => (tool as { input_schema?: unknown }).input_schema),
  };
  const metadata = {};

  function run(...args: RunArguments): unknown {
    const [input, runContext] = args;
    const { toolUse, signal } = (runContext ?? {}) as Partial<BetaToolRunContext>;
    return observeCall(
      {
        definition,
        metadata,
        input,
        toolContext: {
          toolCallId: typeof toolUse?.id === 'string' ? toolUse.id : undefined,
          signal: signal ?? undefined,
          framework: FRAMEWORK_ANTHROPIC,
        },
        // as the runner calls it: `tool.run(...)`, on the original tool
        run: () => Reflect.apply(original, tool, args),
        report: (text): never => {
          throw toolError(text);
        },
      },
      listener,
    );
  }

  return forwardingObject(tool, new Map([['run', markObserved(run)]]));
}

function readSafely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
