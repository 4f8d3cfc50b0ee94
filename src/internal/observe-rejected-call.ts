import type { RemoteCallInfo } from '../remote-call.js';
import type { ToolCallListener, ToolCallRejection } from '../tool-call-listener.js';
import type { ToolMetadata } from '../tool-callback.js';
import { observeCall } from './observe-call.js';

/** A tool call the framework refused before the tool ran, as an adapter knows it. */
export interface RejectedCall {
  /** The tool name the model used (for an unknown tool, one the app does not have). */
  readonly toolName: string;
  readonly toolCallId: string | undefined;
  /** What the model sent: the arguments as the framework has them (parsed when they were JSON). */
  readonly input: unknown;
  /** The framework's own error: its `name` (or `code`) is the call's `error.type`. */
  readonly error: unknown;
  /** Unset for a call that failed before its tool ran through no fault of the model's (OpenRouter). */
  readonly rejection: ToolCallRejection | undefined;
  readonly framework: string;
  /** What else the framework knows of the call (MCP: the span attributes of the request). */
  readonly attributes?: Readonly<Record<string, string | number | boolean>>;
  /** A call a peer sent (MCP: the server's side of a `tools/call` McpServer refused). */
  readonly remote?: RemoteCallInfo;
  /** The conversation the call belongs to, where the framework names one (`ToolCallInfo.conversationId`). */
  readonly conversationId?: string;
}

const NO_METADATA: ToolMetadata = Object.freeze({});

/**
 * Observes a call the framework rejected (the model called a tool wrong) as a call that failed at
 * once with the framework's error, through the same rules as any other call: one span, one duration
 * sample, one error increment, and the error policy. Returns the text the listener reports to the
 * model, or `undefined` when it rethrows: the framework then does what it does without this package.
 */
export function observeRejectedCall(listener: ToolCallListener<unknown>, rejected: RejectedCall): string | undefined {
  const { error } = rejected;
  try {
    return observeCall<never, string, unknown>(
      {
        definition: { name: rejected.toolName },
        metadata: NO_METADATA,
        input: rejected.input,
        toolContext: {
          toolCallId: rejected.toolCallId,
          framework: rejected.framework,
          rejection: rejected.rejection,
          attributes: rejected.attributes,
          remote: rejected.remote,
          conversationId: rejected.conversationId,
        },
        run: () => {
          throw error;
        },
        report: (text) => text,
      },
      listener,
    );
  } catch (thrown) {
    // rethrown: the framework's own error, which it handles as it would without this package
    if (thrown === error) return undefined;
    throw thrown;
  }
}
