import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_OPENROUTER } from '../frameworks.js';
import { executableFunctionOf, type ToolCall } from './tool-calls.js';

/*
 * One call's stand-in for the app's tool: the SDK hands a tool's `execute(input, ctx)` no call id,
 * so each call the SDK runs gets a stand-in of its own (forwardingObject: every other read is made on
 * the app's tool and its `function`), whose `execute` observes that call, with its id, and runs the
 * app's `execute` with the app's `function` as `this`.
 *
 * What the SDK does with the outcome (its executeRegularTool / executeGeneratorTool): a value (or a
 * generator's last) is the result the model reads; a throw is caught and the model reads
 * `{"error": message}`, the loop goes on. `'rethrow'` hands the SDK the tool's own error, as without
 * this package; `'report'` an error whose message is the listener's text, so the model reads that
 * text in the SDK's shape for a failed tool.
 *
 * The progress of the call, for the calls that fail before the tool runs (bad-calls.ts): the SDK
 * validates the arguments with `function.inputSchema`, then reads `function.contextSchema` to build
 * the tool's context, then calls `execute`. A call the SDK answered with an error that never read
 * `contextSchema` had arguments the schema refused.
 */

/** How far the SDK got with one call. */
export class CallProgress {
  /** The arguments passed `inputSchema` (the SDK went on to read `contextSchema`). */
  validated = false;
  /** `execute` was called: the call is observed there. */
  executed = false;
}

const NO_METADATA: ToolMetadata = Object.freeze({});

/** Reported failures reach the SDK as a throw: it makes `{"error": text}` of the message. */
function reportAsFailure(text: string): never {
  throw new Error(text);
}

/** A stand-in for `tool` (one the SDK runs: it has an `execute`) for one call, or `tool` itself when it has none. */
export function observedTool(
  tool: object,
  call: ToolCall,
  listener: ToolCallListener<unknown>,
  progress: CallProgress,
  conversationId: string | undefined,
): object {
  const fn = executableFunctionOf(tool);
  if (fn === undefined) return tool;
  const execute = fn.execute;
  const description = readDescription(fn);
  function observedExecute(this: unknown, ...args: unknown[]): unknown {
    progress.executed = true;
    return observeCall<unknown, never, unknown>(
      {
        definition: { name: call.name, description },
        metadata: NO_METADATA,
        input: args[0],
        toolContext: { toolCallId: call.id, framework: FRAMEWORK_OPENROUTER, conversationId },
        // as the SDK calls it: a method of the tool's `function`
        run: () => Reflect.apply(execute, fn, args),
        report: reportAsFailure,
      },
      listener,
    );
  }
  const functionStandIn = forwardingObject(fn, new Map([['execute', markObserved(observedExecute)]]));
  const watched = new Proxy(functionStandIn, {
    get(target, key, receiver) {
      if (key === 'contextSchema') progress.validated = true;
      return Reflect.get(target, key, receiver);
    },
  });
  return forwardingObject(tool, new Map([['function', watched]]));
}

function readDescription(fn: Record<string, unknown>): string | undefined {
  try {
    return typeof fn.description === 'string' ? fn.description : undefined;
  } catch {
    return undefined;
  }
}
