import { takesDecisions } from '../../internal/takes-decisions.js';
import { tellDecision } from '../../internal/tell-decision.js';
import { GEN_AI_TOOL_NAME_VALUE_UNKNOWN } from '../../otel/semconv.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_AI_SDK } from '../frameworks.js';
import { rememberAsked, takeWaitSeconds } from './approval-waits.js';
import { conversationKey } from './conversation-key.js';

/*
 * The AI SDK's tool approvals (`needsApproval` on a tool) as decisions (`ToolCallListener.onDecision`).
 * The SDK asks `needsApproval` when the model calls the tool: true, and the call waits for the app
 * (a `tool-approval-request` part, no execution); the app answers in its next request, a
 * `tool-approval-response` part in the last message; the SDK then runs an approved call (asking
 * `needsApproval` again first) and tells the model a denied one was denied. `require_approval` is
 * seen where the SDK asks (the tool's `needsApproval`, observed by `wrapTools`), once per call;
 * `allow` / `deny` where the SDK reads the app's answer (the messages: `observeToolCalls`, zero-code),
 * with the wait since the question when this process asked it (approval-waits.ts). The answer's tool
 * name is the client's (the messages it sends back): one the app's tools do not have is `_unknown`,
 * as a tool name the model invents is in the metrics, so that a client opens no series of its own.
 */

type NeedsApproval = (input: unknown, options: { toolCallId?: unknown; messages?: unknown }) => unknown;

/**
 * A `needsApproval` that tells `require_approval` when the SDK asks about a new call and the answer
 * is yes; the same answer, at the same time (a Promise stays a Promise). `needsApproval: true`
 * becomes a function that answers true (the SDK treats the two alike). None when the tool has none,
 * or when the listener takes no decisions.
 */
export function observedNeedsApproval(
  name: string,
  tool: object,
  listener: ToolCallListener<unknown>,
): NeedsApproval | undefined {
  const given: unknown = (tool as { needsApproval?: unknown }).needsApproval;
  if (given !== true && typeof given !== 'function') return undefined;
  // a listener that takes no decisions (takes-decisions.ts) keeps the tool's own needsApproval: nothing to tell
  if (!takesDecisions(listener)) return undefined;
  return function needsApproval(this: unknown, input, options) {
    const answer = given === true ? true : Reflect.apply(given as NeedsApproval, tool, [input, options]);
    if (answer instanceof Promise) {
      return answer.then((needed: unknown) => {
        if (needed === true) tellAsked(name, options, listener);
        return needed;
      });
    }
    if (answer === true) tellAsked(name, options, listener);
    return answer;
  };
}

/** `require_approval`, unless the SDK is asking again about a call it already asked about (an approved one). */
function tellAsked(
  name: string,
  options: { toolCallId?: unknown; messages?: unknown },
  listener: ToolCallListener<unknown>,
) {
  const toolCallId = typeof options?.toolCallId === 'string' ? options.toolCallId : undefined;
  if (toolCallId !== undefined && approvalRequestsOf(options.messages).has(toolCallId)) return;
  if (toolCallId !== undefined) rememberAsked(toolCallId, conversationKey(options.messages));
  tellDecision(listener, { toolName: name, outcome: 'require_approval', toolCallId, framework: FRAMEWORK_AI_SDK });
}

interface Part {
  readonly type?: unknown;
  readonly approvalId?: unknown;
  readonly toolCallId?: unknown;
  readonly toolName?: unknown;
  readonly approved?: unknown;
}

/**
 * `allow` or `deny` for each approval response the SDK will act on in a request's messages (`messages`,
 * or `prompt` given as messages): as the SDK reads them, those of the last message, each matched to its
 * `tool-approval-request` and tool call, less those the messages already hold a result for. Never throws.
 */
export function tellApprovalResponses(options: object, listener: ToolCallListener<unknown>): void {
  try {
    const { messages, prompt } = options as { messages?: unknown; prompt?: unknown };
    const list = Array.isArray(messages) ? messages : Array.isArray(prompt) ? prompt : undefined;
    if (list === undefined) return;
    const last = list[list.length - 1] as { role?: unknown; content?: unknown } | undefined;
    if (last?.role !== 'tool' || !Array.isArray(last.content)) return;
    const responses = (last.content as Part[]).filter((part) => part?.type === 'tool-approval-response');
    if (responses.length === 0) return;
    const answered = new Set(
      (last.content as Part[]).filter((part) => part?.type === 'tool-result').map((part) => part.toolCallId),
    );
    const requests = approvalRequestsOf(list);
    const names = toolNamesOf(list);
    const { tools } = options as { tools?: unknown };
    for (const response of responses) {
      const toolCallId = [...requests].find(([, approvalId]) => approvalId === response.approvalId)?.[0];
      if (toolCallId === undefined || answered.has(toolCallId)) continue;
      // the conversation as the question saw it: the messages before the one that holds the request
      const conversation = conversationKey(list, messageHolding(list, response.approvalId));
      const waitSeconds = takeWaitSeconds(toolCallId, conversation);
      tellDecision(listener, {
        toolName: appToolName(tools, names.get(toolCallId)),
        outcome: response.approved === true ? 'allow' : 'deny',
        toolCallId,
        framework: FRAMEWORK_AI_SDK,
        ...(waitSeconds === undefined ? {} : { waitSeconds }),
      });
    }
  } catch {
    // messages the SDK will reject itself: no decision to tell
  }
}

/** `name` when it is one of the app's `tools` (own keys, as the SDK finds a tool); else `_unknown`. */
function appToolName(tools: unknown, name: string | undefined): string {
  if (name === undefined || tools === null || typeof tools !== 'object') return GEN_AI_TOOL_NAME_VALUE_UNKNOWN;
  return Object.hasOwn(tools, name) ? name : GEN_AI_TOOL_NAME_VALUE_UNKNOWN;
}

/** The index of the assistant message that holds the `tool-approval-request` of `approvalId`. */
function messageHolding(messages: readonly unknown[], approvalId: unknown): number {
  return messages.findIndex(
    (message) =>
      (message as { role?: unknown } | null)?.role === 'assistant' &&
      Array.isArray((message as { content?: unknown }).content) &&
      ((message as { content: Part[] }).content as Part[]).some(
        (part) => part?.type === 'tool-approval-request' && part.approvalId === approvalId,
      ),
  );
}

/** The `tool-approval-request` parts of the assistant messages: tool call id → approval id. */
function approvalRequestsOf(messages: unknown): Map<string, unknown> {
  const requests = new Map<string, unknown>();
  for (const part of assistantParts(messages)) {
    if (part.type === 'tool-approval-request' && typeof part.toolCallId === 'string') {
      requests.set(part.toolCallId, part.approvalId);
    }
  }
  return requests;
}

/** The tool calls of the assistant messages: tool call id → tool name. */
function toolNamesOf(messages: unknown): Map<string, string> {
  const names = new Map<string, string>();
  for (const part of assistantParts(messages)) {
    if (part.type === 'tool-call' && typeof part.toolCallId === 'string' && typeof part.toolName === 'string') {
      names.set(part.toolCallId, part.toolName);
    }
  }
  return names;
}

function assistantParts(messages: unknown): Part[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: { role?: unknown; content?: unknown } | null) =>
    message?.role === 'assistant' && Array.isArray(message.content) ? (message.content as Part[]) : [],
  );
}
