import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { ToolCallInfo, ToolCallListener } from 'otel-tool-calls';

/** One line of the audit log: a `tool_use` and, for the same `tool_use_id`, exactly one `tool_result`. */
export type AuditEvent =
  | { type: 'tool_use'; id: string; tool_call_id?: string; name: string; input: unknown; time: string }
  | { type: 'tool_result'; tool_use_id: string; name: string; content: unknown; is_error: boolean; time: string };

/**
 * Appends a `tool_use` event before each tool call and a `tool_result` event after it, to a JSON
 * Lines file. The id of the `tool_use` event is the listener's correlation context: the decorator
 * hands it back to `afterCall`/`onError` of the same call, also when calls run concurrently.
 */
export class JsonlAuditListener implements ToolCallListener<string> {
  constructor(readonly path: string) {}

  beforeCall(name: string, input: unknown, call: ToolCallInfo): string {
    const id = randomUUID();
    // Appended synchronously and not caught on purpose: if the log cannot be written, the tool
    // does not run (a throwing beforeCall prevents the call), so there is never an unaudited call.
    this.append({ type: 'tool_use', id, tool_call_id: call.toolCallId, name, input, time: now() });
    return id;
  }

  afterCall(id: string, name: string, _input: unknown, result: unknown): void {
    this.append({ type: 'tool_result', tool_use_id: id, name, content: result, is_error: false, time: now() });
  }

  /** Reports the failure to the model (report-and-continue), so the agent can adapt. */
  onError(id: string, name: string, _input: unknown, error: unknown): string {
    const content = `Tool '${name}' failed: ${error instanceof Error ? error.message : String(error)}`;
    this.append({ type: 'tool_result', tool_use_id: id, name, content, is_error: true, time: now() });
    return content;
  }

  private append(event: AuditEvent): void {
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }
}

const now = () => new Date().toISOString();
