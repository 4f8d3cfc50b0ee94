import type { ToolsInput } from '@mastra/core/agent';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { wrapRecordOfTools } from '../../internal/record-of-tools.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition, ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_MASTRA } from '../frameworks.js';

type Execute = (this: unknown, input: unknown, context: unknown) => unknown;

/** What Mastra hands `execute`: an agent's call has its id in `agent.toolCallId`; an AI SDK tool's options have it at the top. */
interface ExecutionContext {
  readonly agent?: { readonly toolCallId?: unknown; readonly threadId?: unknown };
  readonly toolCallId?: unknown;
  readonly abortSignal?: unknown;
}

const EMPTY_METADATA: ToolMetadata = Object.freeze({});

/**
 * Reports every execution of the given Mastra tools (`createTool()`, and the AI SDK tools a Mastra
 * agent also takes) to `listener`, for an `Agent`'s `tools` (or a toolset).
 *
 * Returns a new record, same keys, same order, same types. Each tool with an `execute` is a stand-in
 * for the original whose `execute` goes through the listener: every other property (id, schemas,
 * `requireApproval`, `toModelOutput`, the Mastra tool marker, prototype getters) is read on the
 * original, and the original `execute` runs with the original tool as `this`. The originals are not
 * modified. The tool name is its key in the record, as Mastra names it to the model and in its spans;
 * the call id is `context.agent.toolCallId`, the conversation its memory thread
 * (`context.agent.threadId`). With `@mastra/otel-bridge`, the bridge's tool span is the call's one span. A failure the listener reports is the tool's output the model reads.
 *
 * @example
 * const agent = new Agent({ id: 'assistant', name: 'Assistant', model, tools: wrapTools({ weather }, listener) });
 */
export function wrapTools<TOOLS extends ToolsInput, Context = unknown>(
  tools: TOOLS,
  listener: ToolCallListener<Context>,
): TOOLS {
  const names = { record: 'a record of Mastra tools', tool: 'a Mastra tool' };
  return wrapRecordOfTools(tools, listener, names, (name, tool, execute) =>
    observedExecute(name, tool, execute as Execute, listener as ToolCallListener<unknown>),
  ) as TOOLS;
}

function observedExecute(
  name: string,
  tool: object,
  originalExecute: Execute,
  listener: ToolCallListener<unknown>,
): Execute {
  const { description, inputSchema, parameters } = tool as {
    description?: unknown;
    inputSchema?: unknown;
    parameters?: unknown;
  };
  const definition: ToolDefinition = {
    name,
    description: typeof description === 'string' ? description : undefined,
    inputSchema: inputSchema ?? parameters,
  };

  // Mastra calls `execute` on the tool it was given (the stand-in): the original runs on the original
  return markObserved(function execute(input: unknown, context: unknown) {
    const given = (context !== null && typeof context === 'object' ? context : {}) as ExecutionContext;
    return observeCall(
      {
        definition,
        metadata: EMPTY_METADATA,
        input,
        toolContext: {
          toolCallId: callIdOf(given),
          signal: given.abortSignal instanceof AbortSignal ? given.abortSignal : undefined,
          framework: FRAMEWORK_MASTRA,
          conversationId: threadIdOf(given),
          // `@mastra/otel-bridge` names its span so while the tool runs, and attributes it only when it ends
          foreignSpan: { scope: '@mastra/otel-bridge', name: `tool: '${name}'` },
        },
        run: () => originalExecute.call(tool, input, context),
        report: reportAsOutput,
      },
      listener,
    );
  });
}

const reportAsOutput = (text: string) => text;

/** The memory thread the agent runs in (`generate(..., { memory: { thread } })`): the conversation. */
function threadIdOf(context: ExecutionContext): string | undefined {
  const thread = context.agent?.threadId;
  return typeof thread === 'string' && thread.length > 0 ? thread : undefined;
}

/** Mastra gives `''` for a call without one (a tool run outside an agent's model call). */
function callIdOf(context: ExecutionContext): string | undefined {
  const id = context.agent?.toolCallId ?? context.toolCallId;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}
