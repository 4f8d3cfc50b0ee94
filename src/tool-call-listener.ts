import type { RemoteCallInfo } from './remote-call.js';
import type { ToolDefinition, ToolMetadata } from './tool-callback.js';

/** What a listener may know about one invocation. */
export interface ToolCallInfo {
  readonly toolDefinition: ToolDefinition;
  readonly toolMetadata?: ToolMetadata;
  /** The model's id for this call, where the framework gives one. */
  readonly toolCallId?: string;
  readonly signal?: AbortSignal;
  /** `'ai-sdk' | 'mcp' | 'langchain' | 'openai-agents'`, or undefined for direct use. */
  readonly framework?: string;
  /** Extra span attributes an adapter knows (for example MCP's `mcp.method.name`). */
  readonly attributes?: Readonly<Record<string, string | number | boolean>>;
  /**
   * Set when the call crosses a process boundary (an MCP client sending `tools/call`, an MCP server
   * handling it): the listener records it by that protocol's conventions. Absent for in-process calls.
   */
  readonly remote?: RemoteCallInfo;
  /**
   * Set when the framework rejected the call before the tool ran: the model called it wrong.
   * `'invalid_input'`: arguments that fail the tool's input schema, or are not JSON;
   * `'unknown_tool'`: a tool name the app does not have (a metric records it as `_unknown`).
   * Also set, by the decorator before `onError`, when the adapter learnt of the rejection only from
   * the failure (the OpenAI Agents SDK validates the arguments inside the tool's own `invoke`).
   * Absent for a call the tool itself ran.
   */
  readonly rejection?: ToolCallRejection;
  /**
   * What the caller got of a failure, set by the decorator once `onError` answered, so that
   * `afterCompletion` can read it: `'reported'`, a text in place of the result; `'rethrown'`, an
   * error. `onError`'s return value is one listener's wish: in a composite another listener's text
   * wins over it, and an `onError` that throws turns a report into an error. Absent for a success.
   */
  readonly failureOutcome?: FailureOutcome;
  /**
   * Set when another observer in this process sees the same call under a key both know (the Claude
   * Agent SDK's hooks, and the SDK MCP server that runs the tool, are both given its `tool_use` id):
   * the two are recorded as one call. Absent for a call that one observer alone sees.
   */
  readonly correlation?: ToolCallCorrelation;
  /**
   * The span another tracer opens for this very call and names before it gives it GenAI attributes
   * (Mastra's OTel bridge: `tool: '{tool}'`, scope `@mastra/otel-bridge`): a call that starts inside
   * a recording span of that name (and scope, when given) adds to it instead of opening a second span.
   * A span named by the conventions (`execute_tool {tool}`) needs no such word.
   */
  readonly foreignSpan?: ForeignToolSpan;
  /**
   * The conversation the call belongs to, as the framework names it (the Claude Agent SDK's session,
   * the OpenAI Agents SDK's trace group, Mastra's thread, ADK's session): the span's
   * `gen_ai.conversation.id`. Never invented: absent when the framework gives none.
   */
  readonly conversationId?: string;
}

/** What was decided about a tool call before it ran (`ToolCallDecision.outcome`). */
export type ToolCallDecisionOutcome = 'allow' | 'deny' | 'require_approval';

/**
 * A decision about a tool call the model asked for, as an adapter sees it: `require_approval` when the
 * framework asks the app (or a human) whether the call may run; `allow` or `deny` when the answer
 * comes. A denied call never runs: it has no `beforeCall`.
 */
export interface ToolCallDecision {
  readonly toolName: string;
  readonly outcome: ToolCallDecisionOutcome;
  /** The model's id for the call, where the framework gives one. */
  readonly toolCallId?: string;
  /** The framework (`ToolCallInfo.framework`). */
  readonly framework?: string;
  /** `ToolCallInfo.conversationId`, where the framework gives one. */
  readonly conversationId?: string;
  /**
   * For an `allow` or `deny`: the seconds from the question to the answer, when this process saw
   * both (a permission callback that asked a human; the AI SDK's approval answered in a later
   * request to the process that asked). Absent when the question was asked elsewhere.
   */
  readonly waitSeconds?: number;
}

/** A key two observers of one call both know (`ToolCallInfo.correlation`). */
export interface ToolCallCorrelation {
  readonly key: string;
  /**
   * `'outer'`: this observer sees the call start and end while its body runs elsewhere (an agent's
   * hooks); `'inner'`: this observer runs the body (the server that handles the call) and joins the
   * outer call open under the same key, when exactly one is.
   */
  readonly role: 'outer' | 'inner';
}

/** The span another tracer opens for a call (`ToolCallInfo.foreignSpan`). */
export interface ForeignToolSpan {
  /** Its name while the tool runs. */
  readonly name: string;
  /** Its instrumentation scope's name; absent: any scope. */
  readonly scope?: string;
}

/** What the caller got of a failure (`ToolCallInfo.failureOutcome`). */
export type FailureOutcome = 'reported' | 'rethrown';

/** Why the framework rejected a tool call before the tool ran (`ToolCallInfo.rejection`). */
export type ToolCallRejection = 'invalid_input' | 'unknown_tool';

/**
 * Observes tool invocations. Every method is optional; an absent `onError` means "rethrow".
 *
 * What `beforeCall` returns is the correlation context of the invocation: it is handed back to
 * `afterCall`, `onError`, `afterCompletion` and `runInContext` of the same invocation.
 *
 * The decorator does not guard listener methods (as the reference design): a throwing
 * `beforeCall` keeps the tool from running, a throwing `afterCall` goes to `onError` like a tool
 * failure, and a throwing `onError` replaces the original error. Handle your own failures.
 */
export interface ToolCallListener<Context = unknown> {
  beforeCall?(toolName: string, toolInput: unknown, call: ToolCallInfo): Context;
  afterCall?(context: Context, toolName: string, toolInput: unknown, result: unknown, call: ToolCallInfo): void;
  /** Return a string to report the failure to the model as the tool result; null/undefined to rethrow. */
  onError?(
    context: Context,
    toolName: string,
    toolInput: unknown,
    error: unknown,
    call: ToolCallInfo,
  ): string | null | undefined;
  /** Runs exactly once per invocation whose `beforeCall` returned, after `afterCall`/`onError`. */
  afterCompletion?(context: Context, toolName: string, toolInput: unknown, call: ToolCallInfo): void;
  /** Runs the tool body, e.g. inside the span's context so the tool's own spans become children. */
  runInContext?<R>(context: Context, run: () => R): R;
  /**
   * A decision about a call, outside any invocation (a denied call has none): told by the adapters that
   * see approvals (the AI SDK's `needsApproval`, the OpenAI Agents SDK's, the Claude Agent SDK's
   * permissions). A throwing `onDecision` is caught and logged: the framework's flow goes on.
   */
  onDecision?(decision: ToolCallDecision): void;
}
