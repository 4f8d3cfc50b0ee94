import type { FunctionTool } from '@openai/agents';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { markRejection } from '../../internal/rejection-mark.js';
import { toolNameOf } from '../../internal/tool-name.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition } from '../../tool-callback.js';
import { FRAMEWORK_OPENAI_AGENTS } from '../frameworks.js';
import { approvalStandIn } from './approvals.js';
import { conversationIdOf } from './conversation-id.js';
import { FunctionToolError } from './function-tool-error.js';
import { watchInputParsing } from './input-parsing.js';
import { type AgentsSdk, keepOutcome, observeSdkFailure, type SdkOutcome } from './observe-sdk-failure.js';

// biome-ignore lint/suspicious/noExplicitAny: a tool's run context type is contravariant (invoke's parameter)
export type AnyFunctionTool = FunctionTool<any, any, any>;
type InvokeArguments = Parameters<AnyFunctionTool['invoke']>;

export function isFunctionTool(tool: unknown): tool is AnyFunctionTool {
  return (
    tool !== null &&
    typeof tool === 'object' &&
    (tool as { type?: unknown }).type === 'function' &&
    typeof (tool as { invoke?: unknown }).invoke === 'function'
  );
}

/*
 * Where the hook sits: `invoke` is the only entry point the runner (and `invokeFunctionTool`) uses.
 * Its outcomes, and what the listener sees:
 * - it resolves and the SDK signalled no failure: success;
 * - it resolves to what the tool's errorFunction made of a failure (by default a fixed "An error
 *   occurred..." text): a `FunctionToolError`, see observeSdkFailure for how the failure is seen;
 * - it rejects (errorFunction: null, fatal input errors, aborts): that error, as is.
 * "rethrow" keeps the SDK's own outcome exactly; "report" makes the listener's text the output.
 */
export function observedTool<T extends AnyFunctionTool>(
  tool: T,
  listener: ToolCallListener<unknown>,
  agents: AgentsSdk,
): T {
  const original = tool.invoke;
  // a name that is not a string (a Symbol) must not make the failure's message throw
  const toolName = toolNameOf(tool);
  const definition: ToolDefinition = { name: toolName, description: tool.description, inputSchema: tool.parameters };
  const metadata = { strict: tool.strict };

  function invoke(...args: InvokeArguments): Promise<unknown> {
    const [, input, details] = args;
    // whether the SDK parsed the arguments: a failure before that is the model's (input-parsing.ts)
    const parsing = watchInputParsing(details);
    const invokeArgs =
      parsing.details === details
        ? args
        : (args.map((arg, index) => (index === 2 ? parsing.details : arg)) as InvokeArguments);
    // what the SDK made of this one invocation, seen while `original` runs
    let sdk: SdkOutcome = { failed: false };
    let failure: FunctionToolError | undefined;
    const parsedInput = parseArguments(input);
    const returned = observeCall(
      {
        definition,
        metadata,
        input: parsedInput,
        toolContext: {
          toolCallId: details?.toolCall?.callId,
          signal: details?.signal,
          framework: FRAMEWORK_OPENAI_AGENTS,
          conversationId: conversationIdOf(agents),
        },
        run: async () => {
          // as the runner calls it: `tool.invoke(...)`, on the original tool
          const outcome = await observeSdkFailure(agents, () =>
            handingOn(input, parsedInput, () => Reflect.apply(original, tool, invokeArgs) as Promise<unknown>),
          ).catch((error: unknown) => {
            // the SDK's own error for arguments it refused, rejected (no errorFunction): the model's
            throw isSdkInvalidInput(error) ? markRejection(error, 'invalid_input') : error;
          });
          sdk = { failed: outcome.failed, failure: outcome.failure };
          if (outcome.failed) {
            failure = new FunctionToolError(toolName, outcome.output, outcome.failure, parsing.parsed() === false);
          }
          return outcome.output;
        },
        failureOf: () => failure,
        // the listener's report is the output the model sees
        report: (text) => text,
      },
      listener,
    );
    keepOutcome(returned, () => sdk);
    return returned;
  }

  const replaced = new Map<string, unknown>([['invoke', markObserved(invoke)]]);
  // approvals as decisions (approvals.ts): a tool with no policy, or a listener that takes no decisions, keeps its own
  const approvals = approvalStandIn(toolName, tool, listener, () => conversationIdOf(agents), agents.tool);
  if (approvals.kind === 'observed') replaced.set('needsApproval', approvals.needsApproval);
  // the SDK's constant policy: its own function (the runner's static handling) until its answer is known
  if (approvals.kind === 'constant') replaced.set('needsApproval', approvals.own);
  const standIn = forwardingObject(tool, replaced);
  if (approvals.kind === 'constant') {
    approvals.answer.then(
      (needed) => settleConstantPolicy(standIn, approvals.own, needed === true ? approvals.needsApproval : undefined),
      () => settleConstantPolicy(standIn, approvals.own, undefined),
    );
  }
  return standIn;
}

/**
 * A constant policy's answer known: `observed` in its place (`needsApproval: true`), or none (no policy):
 * the stand-in reads the tool's own again. Unless the app set the stand-in's `needsApproval` meanwhile.
 */
function settleConstantPolicy(standIn: object, own: unknown, observed: unknown): void {
  if (Reflect.get(standIn, 'needsApproval') !== own) return;
  if (observed === undefined) Reflect.deleteProperty(standIn, 'needsApproval');
  else Reflect.set(standIn, 'needsApproval', observed);
}

function isSdkInvalidInput(error: unknown): error is Error {
  return error instanceof Error && error.name === 'InvalidToolInputError';
}

/**
 * The arguments an observed `invoke` has parsed, while it calls the tool's own `invoke`: a tool
 * wrapped twice calls the inner observed `invoke` synchronously from there, and the inner one hands
 * its listener the very same object. That is how the listener tells a second layer of one call
 * (one span) from the tool calling itself (outer-tool-call.ts: the same layer, another input).
 */
let handedOn: { readonly text: string; readonly value: unknown } | undefined;

function handingOn<T>(text: string, value: unknown, invoke: () => T): T {
  const previous = handedOn;
  handedOn = { text, value };
  try {
    return invoke();
  } finally {
    handedOn = previous;
  }
}

/** The model sends arguments as a JSON string; listeners (and captured spans) get the object. */
function parseArguments(input: string): unknown {
  if (typeof input !== 'string') return input;
  if (handedOn !== undefined && handedOn.text === input) return handedOn.value;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}
