import type { ToolRunnableConfig } from '@langchain/core/tools';
import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_LANGCHAIN } from '../frameworks.js';
import type { LoadToolMessage } from './tool-message.js';

/** `StructuredTool.call`, as LangChain's `invoke` calls it on the tool (the stand-in: `this`). */
export type ToolCall = (this: unknown, arg: unknown, configArg?: unknown, tags?: unknown) => Promise<unknown>;

/**
 * The errors the tool's own function threw (seen by the observed `_call`): a `ToolInputParsingException`
 * among them is a nested tool's, already counted as this tool's failure, not a rejection of this call.
 */
const thrownByToolFunctions = new WeakSet<object>();

export function thrownByToolFunction(error: unknown): void {
  if (error !== null && typeof error === 'object') thrownByToolFunctions.add(error);
}

/**
 * The stand-in's `call`: LangChain's own, on the stand-in, so that a call whose arguments fail the
 * tool's schema is seen too. `call` validates the arguments first and throws a
 * `ToolInputParsingException` before any callback or `_call` runs: the model called the tool wrong.
 * That call is observed as a rejected one (`error.type` `ToolInputParsingException`), and the error
 * policy applies: rethrown, the same exception; reported, the text as the tool's output (a
 * `ToolMessage` with `status: 'error'` for a call with a tool call id, as `call` would give).
 */
export function observedCall(
  tool: { readonly name: string; readonly call: unknown },
  listener: ToolCallListener<unknown>,
  toolMessage: LoadToolMessage,
): ToolCall {
  return function call(this: unknown, arg, configArg, tags) {
    // read on the original at each call, and run on the stand-in: its `this._call` is the observed one
    const original = tool.call as ToolCall;
    return observingRejection(tool.name, listener, toolMessage, arg, configArg, () =>
      original.call(this, arg, configArg, tags),
    );
  };
}

/** Runs `call` (LangChain's `call` with these arguments); a rejection of its input is observed as above. */
export async function observingRejection(
  toolName: string,
  listener: ToolCallListener<unknown>,
  toolMessage: LoadToolMessage,
  arg: unknown,
  configArg: unknown,
  call: () => Promise<unknown>,
): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    if (!isInputParsingError(error)) throw error;
    const toolCallId = toolCallIdOf(arg, configArg);
    const reported = observeRejectedCall(listener, {
      toolName,
      toolCallId,
      input: isToolCall(arg) ? arg.args : arg,
      error,
      rejection: 'invalid_input',
      framework: FRAMEWORK_LANGCHAIN,
    });
    if (reported === undefined) throw error;
    return reportedCallOutput(toolName, reported, toolCallId, toolMessage);
  }
}

/** By its class name: this module loads nothing of LangChain's (`ToolInputParsingException` keeps `name` `Error`). */
function isInputParsingError(error: unknown): boolean {
  if (error === null || typeof error !== 'object' || thrownByToolFunctions.has(error)) return false;
  try {
    return Object.getPrototypeOf(error)?.constructor?.name === 'ToolInputParsingException';
  } catch {
    return false;
  }
}

interface LangChainToolCall {
  readonly type: 'tool_call';
  readonly args: unknown;
  readonly id?: unknown;
}

function isToolCall(arg: unknown): arg is LangChainToolCall {
  return arg !== null && typeof arg === 'object' && (arg as { type?: unknown }).type === 'tool_call';
}

/** LangChain's rule: a `ToolCall` given to `call` carries the id, else the run config's `toolCall` (from `invoke`). */
function toolCallIdOf(arg: unknown, configArg: unknown): string | undefined {
  const id = isToolCall(arg) ? arg.id : (configArg as ToolRunnableConfig | undefined)?.toolCall?.id;
  return typeof id === 'string' ? id : undefined;
}

async function reportedCallOutput(
  name: string,
  text: string,
  toolCallId: string | undefined,
  toolMessage: LoadToolMessage,
): Promise<unknown> {
  if (toolCallId === undefined) return text;
  const ToolMessage = await toolMessage();
  if (ToolMessage === undefined) return text;
  return new ToolMessage({ status: 'error', content: text, tool_call_id: toolCallId, name });
}
