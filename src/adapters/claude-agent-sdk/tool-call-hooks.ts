import type {
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookInput,
  HookJSONOutput,
  PostToolBatchHookInput,
  PostToolUseFailureHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
} from '@anthropic-ai/claude-agent-sdk';
import { deferred } from '../../internal/deferred.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { ToolResultError } from '../../tool-result-error.js';
import { FRAMEWORK_CLAUDE_AGENT_SDK } from '../frameworks.js';
import { type DecidedCall, observedCanUseTool, tellDenied } from './permission-decisions.js';
import { ToolUseFailure } from './tool-use-failure.js';

/** The hooks `toolCallHooks` returns: put them into `query({ options: { hooks } })`. */
export interface ToolCallHooks {
  readonly PreToolUse: HookCallbackMatcher[];
  readonly PostToolUse: HookCallbackMatcher[];
  readonly PostToolUseFailure: HookCallbackMatcher[];
  readonly PermissionDenied: HookCallbackMatcher[];
  readonly PostToolBatch: HookCallbackMatcher[];
  readonly SessionEnd: HookCallbackMatcher[];
  /**
   * Ends every call these hooks still have open, as failed (`session_ended`): call it once the
   * query is over (in a `finally` around its loop), for a query that ends without a hook saying so
   * (aborted, interrupted by a denial, its iterator closed early). Not enumerable: the SDK takes
   * each enumerable key as a hook event.
   */
  endOpenCalls(): Promise<void>;
  /**
   * Your `canUseTool`, observed: each permission the SDK asks is told to the listener's
   * `onDecision` (`require_approval`, then `allow` or `deny` with the seconds your callback took);
   * its answer is returned as it is. Pass the result as `query({ options: { canUseTool } })`. Not
   * enumerable, as `endOpenCalls`.
   */
  canUseTool(canUseTool: CanUseTool): CanUseTool;
}

/** What the listener decided for a call that failed: its report, if it reported one. */
interface Reported {
  readonly reported: string;
}

/** A call the hooks saw start, until a Post hook settles it. */
interface OpenCall extends DecidedCall {
  readonly settle: (outcome: { readonly response: unknown } | { readonly failure: Error }) => void;
  readonly observed: Promise<unknown>;
}

/*
 * Where the hooks sit, and what they can see.
 * - PreToolUse opens the call (the listener's beforeCall: an `execute_tool {tool}` span with the
 *   tool_use id) and returns at once: the hook lets the tool run.
 * - PostToolUse settles it with the tool's response: a success, or a failure when the response is
 *   marked as an error (`isError` / `is_error`); PostToolUseFailure with the SDK's error text;
 *   PermissionDenied as denied. A call the SDK denies before it runs (`canUseTool`, a hook's
 *   decision, the permission mode) gets none of these: PostToolBatch, which lists every call of the
 *   batch with what the model is told, settles a call still open there as denied. SessionEnd, and
 *   `endOpenCalls()` when the query is over, end the calls still open (so every span ends).
 * - The body of a built-in tool (Bash, Read, Edit...) runs in the CLI's process: its span's
 *   duration is the hooks' view (from PreToolUse to the Post hook), and no span the body makes is
 *   under it. A tool of an SDK MCP server runs in this process: when that server is instrumented
 *   (`instrumentServer`), its call carries the tool_use id and joins this one (one span per call,
 *   the tool body's own spans under it; outer-tool-call.ts).
 * - Decisions (permission-decisions.ts): `canUseTool(yours)` tells each question and answer; a
 *   denial the hooks settle (PermissionDenied, PostToolBatch) is told as `deny` if nobody told it.
 * - "report": the hooks cannot change that a call failed, nor what the model is told of it; the
 *   listener's text goes to the model as the hook's `additionalContext`.
 * Keyed by session and tool_use id: the hooks of one call come from the CLI in order, but calls
 * interleave, and two sessions (one hooks object in two queries) can number their calls alike (a
 * gateway, a local model).
 */
export function toolCallHooks<Context = unknown>(listener: ToolCallListener<Context>): ToolCallHooks {
  assertListener(listener, 'toolCallHooks');
  const observing = listener as ToolCallListener<unknown>;
  const open = new Map<string, OpenCall>();

  const start = (input: PreToolUseHookInput, key: string, toolUseId: string) => {
    if (open.has(key)) return;
    const outcome = deferred<{ readonly response: unknown } | { readonly failure: Error }>();
    const toolName = String(input.tool_name);
    const conversationId = sessionOf(input) || undefined;
    const observed = Promise.resolve(
      observeCall(
        {
          definition: { name: toolName },
          metadata: {},
          input: input.tool_input,
          toolContext: {
            toolCallId: toolUseId,
            framework: FRAMEWORK_CLAUDE_AGENT_SDK,
            // the body runs in the CLI, or in an SDK MCP server of this process given the same id
            // (mcp/claude-tool-use-id.ts): that server call joins this one
            correlation: { key: toolUseId, role: 'outer' },
            conversationId,
          },
          run: async () => {
            const settled = await outcome.promise;
            if ('failure' in settled) throw settled.failure;
            return settled.response;
          },
          failureOf: (response) =>
            isErrorResponse(response) ? new ToolResultError(toolName, response, errorText(response)) : undefined,
          report: (text): Reported => ({ reported: text }),
        },
        observing,
      ),
    ).catch(() => undefined); // rethrown: the SDK has the failure already, the hooks return nothing
    open.set(key, { settle: outcome.resolve, observed, toolName, conversationId, answered: false });
  };

  const finish = async (
    key: string | undefined,
    outcome: { readonly response: unknown } | { readonly failure: Error },
    reportAs: 'PostToolUse' | 'PostToolUseFailure' | undefined,
  ): Promise<HookJSONOutput> => {
    const call = key === undefined ? undefined : open.get(key);
    if (call === undefined || key === undefined) return {};
    open.delete(key);
    call.settle(outcome);
    const result = await call.observed;
    if (reportAs === undefined || !isReported(result)) return {};
    return { hookSpecificOutput: { hookEventName: reportAs, additionalContext: result.reported } };
  };

  // the session (or the query) is over: what is still open never got a Post hook
  const endAll = async (keys: string[]) => {
    const ended = () => new ToolUseFailure('The session ended with the call still open', 'session_ended');
    await Promise.all(keys.map((key) => finish(key, { failure: ended() }, undefined)));
  };

  /** `deny` for the open call under `key` (its tool_use id is the key's end), once. */
  const tellDeniedAt = (key: string | undefined) => {
    const call = key === undefined ? undefined : open.get(key);
    if (call !== undefined && key !== undefined) tellDenied(observing, call, key.slice(key.indexOf(KEY_SEPARATOR) + 1));
  };
  /** The one open call with this tool_use id (`canUseTool` is not told the session), else none. */
  const openCallOf = (toolUseId: string): OpenCall | undefined => {
    let found: OpenCall | undefined;
    for (const [key, call] of open) {
      if (!key.endsWith(`${KEY_SEPARATOR}${toolUseId}`)) continue;
      if (found !== undefined) return undefined;
      found = call;
    }
    return found;
  };

  const preToolUse: HookCallback = async (input, toolUseId) => {
    const id = idOf(input, toolUseId);
    if (input.hook_event_name === 'PreToolUse' && id !== undefined) start(input, callKey(input, id), id);
    return {};
  };
  const postToolUse: HookCallback = (input, toolUseId) =>
    finish(keyOf(input, toolUseId), { response: (input as PostToolUseHookInput).tool_response }, 'PostToolUse');
  const postToolUseFailure: HookCallback = (input, toolUseId) => {
    const { error, is_interrupt } = input as PostToolUseFailureHookInput;
    const failure = new ToolUseFailure(String(error), is_interrupt === true ? 'interrupted' : 'tool_error');
    return finish(keyOf(input, toolUseId), { failure }, 'PostToolUseFailure');
  };
  const permissionDenied: HookCallback = (input, toolUseId) => {
    const reason = (input as { reason?: unknown }).reason;
    const failure = new ToolUseFailure(`Permission denied: ${String(reason)}`, 'permission_denied');
    const key = keyOf(input, toolUseId);
    tellDeniedAt(key);
    return finish(key, { failure }, undefined);
  };
  // a call of the batch still open had no Post hook: it never ran, the SDK denied it
  const postToolBatch: HookCallback = async (input) => {
    const calls = (input as PostToolBatchHookInput).tool_calls;
    if (!Array.isArray(calls)) return {};
    await Promise.all(
      calls.map((call) => {
        const id = typeof call?.tool_use_id === 'string' && call.tool_use_id.length > 0 ? call.tool_use_id : undefined;
        if (id === undefined) return undefined;
        const failure = new ToolUseFailure(`Permission denied: ${deniedText(call.tool_response)}`, 'permission_denied');
        const key = callKey(input, id);
        tellDeniedAt(key);
        return finish(key, { failure }, undefined);
      }),
    );
    return {};
  };
  const sessionEnd: HookCallback = async (input) => {
    const session = `${sessionOf(input)}${KEY_SEPARATOR}`;
    await endAll([...open.keys()].filter((key) => key.startsWith(session)));
    return {};
  };

  const hooks = {
    // marked: the zero-code instrumentation leaves a query that has these hooks alone
    PreToolUse: [{ hooks: [markObserved(preToolUse)] }],
    PostToolUse: [{ hooks: [postToolUse] }],
    PostToolUseFailure: [{ hooks: [postToolUseFailure] }],
    PermissionDenied: [{ hooks: [permissionDenied] }],
    PostToolBatch: [{ hooks: [postToolBatch] }],
    SessionEnd: [{ hooks: [sessionEnd] }],
  };
  const endOpenCalls = () => endAll([...open.keys()]);
  const canUseTool = (given: CanUseTool) => {
    if (typeof given !== 'function') {
      throw new TypeError(`toolCallHooks(...).canUseTool: \`canUseTool\` must be a function, got ${typeof given}`);
    }
    return observedCanUseTool(given, observing, openCallOf);
  };
  return Object.defineProperties(hooks, {
    endOpenCalls: { value: endOpenCalls, enumerable: false },
    canUseTool: { value: canUseTool, enumerable: false },
  }) as ToolCallHooks;
}

/** Between the session id and the tool_use id in a call's key: in neither (both are the SDK's ids). */
const KEY_SEPARATOR = '\u0000';

/** What tells a call from every other: its session and its tool_use id. */
function callKey(input: HookInput, toolUseId: string): string {
  return `${sessionOf(input)}${KEY_SEPARATOR}${toolUseId}`;
}

function keyOf(input: HookInput, toolUseId: string | undefined): string | undefined {
  const id = idOf(input, toolUseId);
  return id === undefined ? undefined : callKey(input, id);
}

function sessionOf(input: HookInput): string {
  const session = (input as { session_id?: unknown }).session_id;
  return typeof session === 'string' ? session : '';
}

/** The hook input's tool_use id, else the one the SDK passes the callback. */
function idOf(input: HookInput, toolUseId: string | undefined): string | undefined {
  const id = (input as { tool_use_id?: unknown }).tool_use_id;
  if (typeof id === 'string' && id.length > 0) return id;
  return typeof toolUseId === 'string' && toolUseId.length > 0 ? toolUseId : undefined;
}

function isReported(value: unknown): value is Reported {
  return value !== null && typeof value === 'object' && typeof (value as Partial<Reported>).reported === 'string';
}

/** A tool response marked as an error: an MCP result's `isError`, a tool_result's `is_error`. */
function isErrorResponse(response: unknown): boolean {
  if (response === null || typeof response !== 'object') return false;
  try {
    const marked = response as { isError?: unknown; is_error?: unknown };
    return marked.isError === true || marked.is_error === true;
  } catch {
    return false;
  }
}

/** What the model is told of a denied call (PostToolBatch's `tool_response`): the SDK's text, or the fixed one. */
function deniedText(response: unknown): string {
  return typeof response === 'string' ? response : 'The tool call was not run';
}

function errorText(response: unknown): string {
  try {
    const content = (response as { content?: unknown }).content;
    if (Array.isArray(content)) {
      const text = content.find((block) => typeof (block as { text?: unknown })?.text === 'string') as
        | { text: string }
        | undefined;
      if (text !== undefined) return text.text;
    }
  } catch {
    // a response whose content cannot be read: the fixed text
  }
  return 'The tool returned an error result';
}
