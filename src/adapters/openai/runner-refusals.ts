import { logger } from '../../internal/logger.js';
import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_OPENAI } from '../frameworks.js';
import { argumentsOf } from './arguments.js';
import { toolCallById } from './runner-messages.js';

/*
 * A call the runner answers itself, without calling a tool: a name it has no tool for, or another
 * tool than the one `tool_choice` forces. It answers with a tool message `Invalid tool_call: "name".
 * …` from a table of its own, which no wrapped tool sees; the runner's `'message'` event shows it
 * as it is added, before the next request. A runner is watched from the first time it hands a
 * wrapped tool itself (zero-code watches every runner from `runTools`). Each such answer is a call
 * the model got wrong (`unknown_tool`); under `'report'` the listener's text replaces the runner's in
 * that message, so the model reads it.
 */

const INVALID_TOOL_CALL = 'Invalid tool_call: ';
const watched = new WeakSet<object>();

interface ToolMessage {
  role?: unknown;
  tool_call_id?: unknown;
  content?: unknown;
}

/** Observes the runner's own answers to calls of tools it does not have (once per runner). */
export function watchRefusals(runner: unknown, listener: ToolCallListener<unknown>): void {
  if (runner === null || typeof runner !== 'object' || watched.has(runner)) return;
  try {
    const on = (runner as { on?: unknown }).on;
    if (typeof on !== 'function') return;
    watched.add(runner);
    on.call(runner, 'message', (message: unknown) => observeRefusal(runner, message as ToolMessage, listener));
  } catch (error) {
    logger.error('could not watch the tool calls this OpenAI runner answers itself; they are not observed', error);
  }
}

function observeRefusal(runner: object, message: ToolMessage, listener: ToolCallListener<unknown>): void {
  if (message?.role !== 'tool' || typeof message.content !== 'string') return;
  if (!message.content.startsWith(INVALID_TOOL_CALL)) return;
  const call = toolCallById(runner, message.tool_call_id);
  const error = Object.assign(new Error(message.content), { name: 'InvalidToolCall' });
  const reported = observeRejectedCall(listener, {
    toolName: call?.name ?? '',
    toolCallId: typeof message.tool_call_id === 'string' ? message.tool_call_id : undefined,
    input: argumentsOf(call?.rawArguments),
    error,
    rejection: 'unknown_tool',
    framework: FRAMEWORK_OPENAI,
  });
  // the message the runner made for this answer, added just now and sent with the next request
  if (reported !== undefined) message.content = reported;
}
