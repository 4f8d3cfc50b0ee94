import type { Exception } from '@opentelemetry/api';
import type { ToolCallInfo } from '../tool-call-listener.js';
import { truncate } from './bounded-text.js';

/**
 * A call the framework rejected for its input (`invalid_input`, known at the start or learnt from the
 * error): the framework's error message quotes the model's arguments, at any length (the AI SDK's
 * `Value: {...}` and `Text: ...`, Genkit's "Provided data", a schema library's received values).
 * Such a message is argument content: on the span (status, exception event) only where the
 * arguments themselves may be recorded as they are, that is captured and with no `redact` to
 * apply (a text that quotes them cannot be redacted), and bounded; otherwise a fixed text.
 */
export function quotesArguments(call: ToolCallInfo): boolean {
  return call.rejection === 'invalid_input';
}

/** The status (and exception message) of a rejected call whose arguments may not be recorded. */
export function inputRejectedMessage(toolName: string): string {
  return `Invalid input for tool '${toolName}'`;
}

/** Bound of a stack's frames: about Node's default ten frames of a long path each. */
const MAX_FRAMES_LENGTH = 4096;
/** A frame line of a V8 stack: anchored, one line (linear). */
const FRAME_LINE = /^\s+at /;

/**
 * The exception event of such a failure: the error's type, `message` (fixed, or its own bounded),
 * and only the stack's frames: a V8 stack starts with the error's message, arguments included.
 * Frames are read after that message, so that none of its lines can pass for one; an error whose
 * stack does not hold its message gets none.
 */
export function exceptionOf(error: Error, type: string, message: string): Exception {
  return { name: type, message, stack: framesOf(error) };
}

function framesOf(error: Error): string | undefined {
  try {
    const { stack, message } = error;
    if (typeof stack !== 'string' || typeof message !== 'string') return undefined;
    const at = stack.indexOf(message);
    if (at < 0) return undefined;
    const frames = stack
      .slice(at + message.length)
      .split('\n')
      .filter((line) => FRAME_LINE.test(line));
    return frames.length === 0 ? undefined : truncate(frames.join('\n'), MAX_FRAMES_LENGTH);
  } catch {
    return undefined;
  }
}
