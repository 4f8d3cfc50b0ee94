import { randomUUID } from 'node:crypto';
import type { ToolCallInfo, ToolCallListener } from 'otel-tool-calls';

/** What the page receives, one Server-Sent Event per change of a tool call. */
export type ProgressEvent =
  | { type: 'tool-start'; id: string; name: string; input: unknown }
  | { type: 'tool-finish'; id: string; name: string; durationMs: number }
  | { type: 'tool-error'; id: string; name: string; durationMs: number; message: string };

interface CallContext {
  readonly id: string;
  readonly startedAt: number;
}

/**
 * Publishes each tool call's start, finish (with its duration) and failure (with the message the
 * model is told) through `publish`. The context returned by `beforeCall` carries the row id and the
 * start time, so concurrent calls of the same tool stay apart and each gets its own duration.
 */
export class SseProgressListener implements ToolCallListener<CallContext> {
  constructor(private readonly publish: (event: ProgressEvent) => void) {}

  beforeCall(name: string, input: unknown, call: ToolCallInfo): CallContext {
    const id = call.toolCallId ?? randomUUID();
    this.publish({ type: 'tool-start', id, name, input });
    return { id, startedAt: performance.now() };
  }

  afterCall({ id, startedAt }: CallContext, name: string): void {
    this.publish({ type: 'tool-finish', id, name, durationMs: Math.round(performance.now() - startedAt) });
  }

  onError({ id, startedAt }: CallContext, name: string, _input: unknown, error: unknown, call: ToolCallInfo) {
    const durationMs = Math.round(performance.now() - startedAt);
    // The page went away and the run was aborted: rethrow to stop the agent, nobody is watching.
    if (call.signal?.aborted) return null;
    const message = `Tool '${name}' failed: ${error instanceof Error ? error.message : String(error)}`;
    this.publish({ type: 'tool-error', id, name, durationMs, message });
    return message; // reported to the model, which adapts
  }
}
