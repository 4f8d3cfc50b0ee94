import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { observeRejectedCall } from '../../internal/observe-rejected-call.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition } from '../../tool-callback.js';
import { FRAMEWORK_OPENAI } from '../frameworks.js';
import { argumentsOf } from './arguments.js';
import { KEYS, type RunnableShape, type ToolFunction } from './runnable-tools.js';
import { claimToolCallId } from './runner-messages.js';
import { watchRefusals } from './runner-refusals.js';

/*
 * Where the hooks sit: the two functions the runner calls for one model's call, each replaced on a
 * stand-in (forwardingObject) for the app's object, the app's own tool untouched.
 * - `parse(rawArguments)`, when the tool has one: a failure is the model's (arguments its schema
 *   refuses), a call that never reaches the tool (`invalid_input`); the runner answers the model with
 *   the error's message, so under `'report'` it is handed an error whose message is the listener's text.
 * - `function(arguments, runner, toolContext)`: the call, one `execute_tool` span, active inside the
 *   tool; its id is read in the runner's messages (runner-messages.ts). What the runner does with the
 *   outcome: a value is stringified into the tool message; a throw rejects the whole run. `'rethrow'`
 *   keeps that; `'report'` returns the listener's text as the tool's result, the message the model reads.
 * The runner handed to the tool is watched for the calls it answers itself (runner-refusals.ts).
 */

/** The raw arguments each parsed value came from: what tells identical calls' ids apart. */
const rawArgumentsOf = new WeakMap<object, string>();

/** Whether `shape`'s function is already observed (a wrapped tool wrapped again). */
export function isObservedShape(shape: RunnableShape): boolean {
  return isObserved(shape.run);
}

/** A stand-in for `tool` whose calls `listener` sees. */
export function observedTool<T extends object>(tool: T, shape: RunnableShape, listener: ToolCallListener<unknown>): T {
  const definition: ToolDefinition = {
    name: shape.name,
    description: typeof shape.description === 'string' ? shape.description : undefined,
    inputSchema: shape.parameters,
  };
  const metadata = {};
  const { holder, run: original, parse } = shape;
  /** The last runner this tool was handed: where a parse failure's call id is read. */
  let lastRunner: unknown;

  function run(this: unknown, ...args: unknown[]): unknown {
    const [input, runner] = args;
    lastRunner = runner;
    watchRefusals(runner, listener);
    const raw = typeof input === 'string' ? input : rawArgumentsOf.get(input as object);
    return observeCall(
      {
        definition,
        metadata,
        input: parse === undefined ? argumentsOf(input) : input,
        toolContext: {
          toolCallId: claimToolCallId(runner, shape.name, raw),
          signal: signalOf(runner),
          framework: FRAMEWORK_OPENAI,
        },
        // as the runner calls it: a method of the object it read it on
        run: () => Reflect.apply(original, holder, args),
        report: (text) => text,
      },
      listener,
    );
  }

  const replaced = new Map<string, unknown>([[KEYS[shape.kind].run, markObserved(run as ToolFunction)]]);
  if (parse !== undefined) {
    const parseObserved = async function parseObserved(this: unknown, ...args: unknown[]): Promise<unknown> {
      const [raw] = args;
      try {
        const parsed = await Reflect.apply(parse, holder, args);
        if (parsed !== null && typeof parsed === 'object' && typeof raw === 'string') rawArgumentsOf.set(parsed, raw);
        return parsed;
      } catch (error) {
        const reported = observeRejectedCall(listener, {
          toolName: shape.name,
          toolCallId: claimToolCallId(lastRunner, shape.name, typeof raw === 'string' ? raw : undefined),
          input: argumentsOf(raw),
          error,
          rejection: 'invalid_input',
          framework: FRAMEWORK_OPENAI,
        });
        throw reported === undefined ? error : new Error(reported);
      }
    };
    replaced.set(KEYS[shape.kind].parse, parseObserved);
  }
  if (shape.kind === 'auto-parseable') return forwardingObject(tool, replaced);
  return forwardingObject(tool, new Map([['function', forwardingObject(holder, replaced)]]));
}

/** The runner's abort signal (`controller.signal`, public), if it has one. */
function signalOf(runner: unknown): AbortSignal | undefined {
  try {
    const signal = (runner as { controller?: { signal?: unknown } } | null | undefined)?.controller?.signal;
    return signal instanceof AbortSignal ? signal : undefined;
  } catch {
    return undefined;
  }
}
