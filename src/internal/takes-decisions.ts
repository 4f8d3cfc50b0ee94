import type { ToolCallListener } from '../tool-call-listener.js';
import { composedParts, MAX_COMPOSITE_DEPTH } from './composed-parts.js';
import { IGNORES_DECISIONS_KEY } from './protocol.js';

/**
 * Whether `listener` does something with a decision (`onDecision`): it has the method, and does not
 * say that it ignores them (an OpenTelemetry listener with `recordDecisions: false`); a composite
 * listener, when one of its parts does. An adapter stands in for a framework's approval hook only
 * to tell decisions: for a listener that takes none, the hook stays the framework's own, untouched
 * (a stand-in is not always the same to the framework: docs/frameworks/openai-agents.md).
 */
export function takesDecisions(listener: ToolCallListener<unknown>, depth = 0): boolean {
  if (typeof listener.onDecision !== 'function') return false;
  // past the bound, or a Proxy listener whose traps throw on these keys: it has onDecision, so it takes them
  if (depth > MAX_COMPOSITE_DEPTH) return true;
  try {
    const parts = composedParts(listener);
    if (parts !== undefined) return parts.some((part) => takesDecisions(part as ToolCallListener<unknown>, depth + 1));
    return (listener as { [IGNORES_DECISIONS_KEY]?: unknown })[IGNORES_DECISIONS_KEY] !== true;
  } catch {
    return true;
  }
}
