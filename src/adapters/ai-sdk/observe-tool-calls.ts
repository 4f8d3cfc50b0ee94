import type { ToolCallRepairFunction, ToolSet } from 'ai';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import type { ToolCallListener, ToolCallRejection } from '../../tool-call-listener.js';
import { FRAMEWORK_AI_SDK } from '../frameworks.js';
import { tellApprovalResponses } from './approvals.js';
import { wrapTools } from './wrap-tools.js';

/** What the AI SDK hands a tool-call repair function (ai 6 and 7 agree on these fields). */
interface RepairArguments {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: string };
  readonly error: unknown;
}
type Repair = (options: RepairArguments) => PromiseLike<unknown> | unknown;

/**
 * The options this function reads; any other key is the caller's and is passed on as it is. The
 * repair functions are typed as the SDK's, so that one written inline gets its parameter's type.
 */
export interface ObservableOptions {
  readonly tools?: ToolSet;
  readonly experimental_repairToolCall?: ToolCallRepairFunction<ToolSet>;
  readonly repairToolCall?: ToolCallRepairFunction<ToolSet>;
}

/**
 * `generateText`/`streamText` options (or `ToolLoopAgent` settings) whose tool calls `listener`
 * sees, all of them: each `execute` through `wrapTools`, and each call the AI SDK rejects before
 * the tool runs (input that fails the tool's schema or is not JSON, `AI_InvalidToolInputError`; a
 * tool name the app does not have, `AI_NoSuchToolError`), which no tool can see. Those are recorded
 * as failed calls at the moment the SDK rejects them (`error.type` the SDK's error name, the
 * model's `gen_ai.tool.call.id`), and a reported failure becomes the error text the model reads.
 *
 * How: the SDK's tool-call repair hook (`experimental_repairToolCall`, ai 7 `repairToolCall`) runs
 * for exactly these calls; the one given here runs yours first (a call you repair is not rejected)
 * and then records the rejection. Approvals (`needsApproval`) are decisions (`onDecision`):
 * `require_approval` when the SDK asks the app, `allow` / `deny` for the app's answers in the
 * messages given here (a denied call never runs: it has no span). Returns a stand-in for `options`: every other option is read on
 * the object you pass (its prototype and getters kept).
 *
 * @example
 * const result = await generateText(observeToolCalls({ model, tools, prompt: 'Weather in Paris?' }, listener));
 */
export function observeToolCalls<Options extends ObservableOptions, Context = unknown>(
  options: Options,
  listener: ToolCallListener<Context>,
): Options {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `observeToolCalls: \`options\` must be the options of generateText/streamText, got ${describe(options)}`,
    );
  }
  assertListener(listener, 'observeToolCalls');
  const observing = listener as ToolCallListener<unknown>;
  const replaced = repairReplacements(options, observing);
  const { tools } = options;
  if (tools !== undefined && tools !== null) replaced.set('tools', wrapTools(tools, observing));
  // the app's answers to approval requests, as the SDK will read them: decisions
  if (replaced.has('experimental_repairToolCall')) tellApprovalResponses(options, observing);
  return forwardingObject(options, replaced);
}

/**
 * The repair options that observe the calls the SDK rejects (zero-code uses it too), composed with
 * the app's own repair; none when that is observed already (options made by `observeToolCalls`).
 */
export function repairReplacements(
  options: ObservableOptions,
  listener: ToolCallListener<unknown>,
): Map<string, unknown> {
  const replaced = new Map<string, unknown>();
  const given = userRepair(options);
  if (isObserved(given)) return replaced;
  const repair = observedRepair(given, listener);
  // ai 6 reads `experimental_repairToolCall`; ai 7 reads `repairToolCall`, defaulting to the first.
  // The second only where the app set it (an ai 7 app): ai 6 would pass an unknown key on in its
  // call settings (and its telemetry would record a function as `ai.settings.repairToolCall`)
  replaced.set('experimental_repairToolCall', repair);
  if (options.repairToolCall !== undefined) replaced.set('repairToolCall', repair);
  return replaced;
}

/** The app's own repair function, under either name. */
function userRepair(options: ObservableOptions): Repair | undefined {
  const given = options.repairToolCall ?? options.experimental_repairToolCall;
  return typeof given === 'function' ? (given as Repair) : undefined;
}

/**
 * A repair function that runs `repair` (the app's) and records what stays rejected. Returning
 * `null` leaves the SDK's own handling: it turns the call into a `tool-error` the model reads.
 */
function observedRepair(repair: Repair | undefined, listener: ToolCallListener<unknown>): Repair {
  return markObserved(async (options: RepairArguments) => {
    if (repair !== undefined) {
      let repaired: unknown;
      try {
        repaired = await repair(options);
      } catch (repairError) {
        // the SDK fails the call with its own ToolCallRepairError: still a call the model got wrong
        recordRejection(options, listener);
        throw repairError;
      }
      if (repaired !== null && repaired !== undefined) return repaired;
    }
    const reported = recordRejection(options, listener);
    if (reported !== undefined) useAsErrorText(options.error, reported);
    return null;
  });
}

function recordRejection(options: RepairArguments, listener: ToolCallListener<unknown>): string | undefined {
  const { toolCall, error } = options;
  return observeRejectedCall(listener, {
    toolName: String(toolCall.toolName),
    toolCallId: typeof toolCall.toolCallId === 'string' ? toolCall.toolCallId : undefined,
    input: parsedInput(toolCall.input),
    error,
    rejection: rejectionOf(error),
    framework: FRAMEWORK_AI_SDK,
  });
}

/** `AI_NoSuchToolError` for a name the app does not have; every other rejection is of the input. */
function rejectionOf(error: unknown): ToolCallRejection {
  return (error as { name?: unknown } | null)?.name === 'AI_NoSuchToolError' ? 'unknown_tool' : 'invalid_input';
}

/** The model sends arguments as JSON text; listeners get the value when it is JSON, else the text. */
function parsedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/**
 * The SDK sends the model the rejection's error text as the tool result: ai 6 reads its `message`,
 * ai 7 its `toString()`. The error object is the SDK's, made for this one call.
 */
function useAsErrorText(error: unknown, text: string): void {
  if (error === null || typeof error !== 'object') return;
  try {
    Object.defineProperty(error, 'message', { value: text, configurable: true, writable: true });
    Object.defineProperty(error, 'toString', { value: () => text, configurable: true, writable: true });
  } catch {
    // a frozen error: the model reads the SDK's own text
  }
}
