import type { ToolExecutionOptions, ToolSet } from 'ai';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { wrapRecordOfTools } from '../../internal/record-of-tools.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition, ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_AI_SDK } from '../frameworks.js';
import { observedNeedsApproval } from './approvals.js';

type Execute = (this: unknown, input: unknown, options: ToolExecutionOptions) => unknown;

const EMPTY_METADATA: ToolMetadata = Object.freeze({});

/**
 * Reports every execution of the given AI SDK tools to `listener`.
 *
 * Returns a new record with the same keys, in the same order. Each tool with an `execute` is a
 * stand-in for the original whose `execute` goes through the listener: every other property
 * (description, input schema, `toModelOutput`, `needsApproval`, prototype getters, inherited and
 * non-enumerable ones) is read on the original, and the original `execute` runs with the original
 * tool as `this`, so `#private` fields and state are the tool's own. The originals are not modified.
 * Tools without `execute` (client-side tools) are returned as they are.
 * Streaming tools (`execute` returning an async iterable) keep streaming: every preliminary result
 * passes through, and the invocation ends when the stream ends, `afterCall` receiving the last chunk.
 * When the listener reports an error, the reported text is the tool output the model sees.
 * A tool with `needsApproval`: each call the SDK asks the app to approve is told to the listener's
 * `onDecision` as `require_approval` (the app's answer is seen by `observeToolCalls` and zero-code).
 *
 * @example
 * const result = await generateText({
 *   model,
 *   tools: wrapTools({ weather }, new OpenTelemetryToolCallListener()),
 *   prompt: 'What is the weather in Paris?',
 * });
 */
export function wrapTools<TOOLS extends ToolSet, Context = unknown>(
  tools: TOOLS,
  listener: ToolCallListener<Context>,
): TOOLS {
  const names = { record: 'a record of AI SDK tools', tool: 'an AI SDK tool object' };
  return wrapRecordOfTools(
    tools,
    listener,
    names,
    (name, tool, execute) => listenedExecute(name, tool as ToolSet[string], execute as Execute, listener),
    // an approval the SDK asks the app for: a decision (approvals.ts)
    (name, tool) => {
      const needsApproval = observedNeedsApproval(name, tool, listener as ToolCallListener<unknown>);
      return needsApproval === undefined ? [] : [['needsApproval', needsApproval]];
    },
  ) as TOOLS;
}

function listenedExecute<Context>(
  name: string,
  tool: ToolSet[string],
  originalExecute: Execute,
  listener: ToolCallListener<Context>,
): Execute {
  const definition: ToolDefinition = {
    name,
    // ai 7 allows a description computed per call ({ context } => string): only a text is passed on
    description: typeof tool.description === 'string' ? tool.description : undefined,
    inputSchema: tool.inputSchema,
  };
  const metadata = toolMetadata(tool);

  // the AI SDK calls `execute` on the tool it was given (the stand-in): the original runs on the original
  return markObserved(function execute(input: unknown, executionOptions: ToolExecutionOptions) {
    return observeCall(
      {
        definition,
        metadata,
        input,
        toolContext: {
          toolCallId: typeof executionOptions?.toolCallId === 'string' ? executionOptions.toolCallId : undefined,
          signal: executionOptions?.abortSignal,
          framework: FRAMEWORK_AI_SDK,
        },
        run: () => originalExecute.call(tool, input, executionOptions),
        // the reported text is the tool output the model sees (for a stream: its last chunk)
        report: reportAsOutput,
      },
      listener,
    );
  });
}

const reportAsOutput = (text: string) => text;

/** The AI SDK's own tool `metadata` (e.g. the MCP server a dynamic tool comes from), when set. */
function toolMetadata(tool: ToolSet[string]): ToolMetadata {
  const { metadata } = tool as { metadata?: unknown };
  return metadata !== null && typeof metadata === 'object' ? (metadata as ToolMetadata) : EMPTY_METADATA;
}
