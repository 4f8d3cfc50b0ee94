import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_PI_AGENT_CORE } from '../frameworks.js';

/*
 * The calls pi's loop answers itself, before any tool runs (agent-loop.js `prepareToolCall`): a name
 * the run has no tool for (`Tool <name> not found`), and arguments the tool's schema refuses
 * (`validateToolArguments`: `Validation failed for tool "<name>": …`, or a `prepareArguments` that
 * throws). pi keeps no error object for either: the model gets an error tool result whose text says
 * it, and the run's events show it (`tool_execution_end` with `isError: true`, its `result` the very
 * object the tool result message is made from afterwards). Each is a call the model got wrong
 * (`unknown_tool`: `_unknown` in the metrics; `invalid_input`), one span, sample and error; under
 * `'report'` the listener's text replaces pi's in that result, so the model reads it.
 */

/** A call of a tool the run does not have (`error.type` `ToolNotFoundError`). */
export class ToolNotFoundError extends Error {
  override readonly name = 'ToolNotFoundError' as const;
}

/** Arguments the tool's schema refuses (`error.type` `InvalidToolArgumentsError`). */
export class InvalidToolArgumentsError extends Error {
  override readonly name = 'InvalidToolArgumentsError' as const;
}

/** What the end of a call the loop answered itself says. */
export interface BadCall {
  readonly toolName: string;
  readonly toolCallId: string | undefined;
  /** The model's arguments, as `tool_execution_start` gave them. */
  readonly input: unknown;
  /** Whether the run has a tool of that name. */
  readonly known: boolean;
  /** `tool_execution_end`'s `result`: `{ content: [{ type: 'text', text }], details }`. */
  readonly result: unknown;
  readonly conversationId: string | undefined;
}

/** Observes one call the loop answered itself as the model's mistake; under `'report'`, the model reads the listener's text. */
export function observeBadCall(listener: ToolCallListener<unknown>, call: BadCall): void {
  const text = resultText(call.result);
  const error = call.known
    ? // pi's text quotes the arguments: the listener records it only where they may be (rejected-input.ts)
      new InvalidToolArgumentsError(text ?? `Validation failed for tool "${call.toolName}"`)
    : new ToolNotFoundError(text ?? `Tool ${call.toolName} not found`);
  const reported = observeRejectedCall(listener, {
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    input: call.input,
    error,
    rejection: call.known ? 'invalid_input' : 'unknown_tool',
    framework: FRAMEWORK_PI_AGENT_CORE,
    conversationId: call.conversationId,
  });
  // the result pi makes the tool result message of, once the event's listeners are done
  if (reported !== undefined) (call.result as { content: unknown }).content = [{ type: 'text', text: reported }];
}

/** The text of an error tool result pi made (`createErrorToolResult`). */
function resultText(result: unknown): string | undefined {
  const content = (result as { content?: unknown } | null | undefined)?.content;
  if (!Array.isArray(content)) return undefined;
  const part = content.find((entry) => (entry as { type?: unknown } | null)?.type === 'text') as
    | { text?: unknown }
    | undefined;
  return typeof part?.text === 'string' ? part.text : undefined;
}
