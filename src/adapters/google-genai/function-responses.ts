import { ToolResultError } from '../../tool-result-error.js';
import type { FunctionCallLike } from './callable-tool.js';

/**
 * What a listener receives when a CallableTool answers a call with a `functionResponse` whose
 * `response` has an `error` (what `mcpToTool` makes of an MCP `isError` result) instead of throwing:
 * an error (`error.type` = `tool_error`); `result` keeps the parts so that "rethrow" hands them back.
 */
export class FunctionResponseError extends ToolResultError<unknown[]> {
  override readonly name = 'FunctionResponseError' as const;
}

/** The failure in the parts that answer one call: a `functionResponse` whose `response` has an `error`. */
export function toolFailureOf(toolName: string, parts: unknown): FunctionResponseError | undefined {
  if (!Array.isArray(parts)) return undefined;
  try {
    for (const part of parts) {
      const response = (part as { functionResponse?: { response?: unknown } } | null)?.functionResponse?.response;
      if (response !== null && typeof response === 'object' && 'error' in response) {
        return new FunctionResponseError(toolName, parts, messageOf((response as { error: unknown }).error, toolName));
      }
    }
  } catch {
    // parts of another shape: a success
  }
  return undefined;
}

/** The part that answers `call` with the listener's text, as a failed call Gemini reads. */
export function functionResponseError(call: FunctionCallLike, name: string, text: string): unknown {
  const id = typeof call.id === 'string' ? { id: call.id } : {};
  return { functionResponse: { ...id, name, response: { error: text } } };
}

/** The error's text: a string as it is, an MCP result's text content, else a fixed sentence. */
function messageOf(error: unknown, toolName: string): string {
  if (typeof error === 'string') return error;
  const content = (error as { content?: unknown } | null)?.content;
  if (Array.isArray(content)) {
    const texts = content.flatMap((part) => (typeof part?.text === 'string' ? [part.text as string] : []));
    if (texts.length > 0) return texts.join('\n');
  }
  return `the tool ${toolName} answered with an error`;
}
