import { deferred } from '../../internal/deferred.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_GOOGLE_GENAI } from '../frameworks.js';
import { answeredCalls, batchParts } from './batch-answers.js';
import { type CallableToolLike, declarationOf, declaredNames, type FunctionCallLike } from './callable-tool.js';
import { argsOf, idOf, nameOf } from './function-calls.js';
import { functionResponseError, toolFailureOf } from './function-responses.js';
import { ToolDeclarations } from './tool-declarations.js';
import type { CallableToolGroup } from './tool-group.js';
import { observeUndeclaredCall } from './undeclared-calls.js';

/*
 * Where the hook sits: `callTool(functionCalls)`, replaced on a stand-in for the app's CallableTool
 * (its other reads go to the original; `tool()` is passed on and its answer kept: tool-declarations.ts).
 * The SDK hands it a batch, and the original gets that batch as it is, in one call (a tool that
 * answers its calls concurrently, or in one request, keeps doing so). Each FunctionCall of the batch
 * that the tool declares is one call to the listener, its own `execute_tool {tool}` span (the
 * function call's `id` when the model gave one), started before the original runs and ended when it
 * has answered: each call's answer is its parts of the batch's answer (batch-answers.ts). A batch of
 * one observed call (every call of a stream; a response with one call) runs inside that call's span,
 * so what the tool does for it is the span's child; a batch of several runs in the context the SDK
 * called it in. A call the tool does not declare (`generateContent` hands every CallableTool every
 * call) is passed on unobserved: the tool that declares it observes it; one that no tool of the
 * stand-in's group declares is the model's mistake (undeclared-calls.ts).
 *
 * What the SDK does with the outcome: the parts are the `functionResponse`s the model reads; a throw
 * rejects `generateContent` (ends the stream). A `functionResponse` whose `response` has an `error`
 * (what `mcpToTool` makes of an MCP `isError` result) is a failure the tool reported (`tool_error`),
 * handed on as it is under `'rethrow'`. `'report'` answers with a `functionResponse` whose `response` is
 * `{ error: <the listener's text> }`, the shape Gemini reads as a failed call. A throw fails every
 * observed call of the batch; the batch's answer is a throw if any of them is rethrown.
 */

/** A stand-in for `tool` whose calls `listener` sees; with `group`, it also sees the calls no tool of the group declares. */
export function observedCallableTool<T extends CallableToolLike>(
  tool: T,
  listener: ToolCallListener<unknown>,
  group?: CallableToolGroup,
): T {
  const original = tool.callTool;
  const declarations = new ToolDeclarations(tool);

  async function callTool(functionCalls: FunctionCallLike[]): Promise<unknown[]> {
    if (!Array.isArray(functionCalls)) return Reflect.apply(original, tool, [functionCalls]);
    const declared = await declarations.current();
    const names = declaredNames(declared);
    const own: FunctionCallLike[] = [];
    const others: FunctionCallLike[] = [];
    for (const functionCall of functionCalls) {
      const name = nameOf(functionCall);
      if (name !== undefined && (names === undefined || names.has(name))) own.push(functionCall);
      else others.push(functionCall);
    }
    const undeclared = group === undefined || others.length === 0 ? [] : await group.undeclared(others);
    const added = undeclared.flatMap((functionCall) => observeUndeclaredCall(functionCall, listener));
    if (own.length === 0) {
      const parts = Reflect.apply(original, tool, [functionCalls]) as Promise<unknown[]>;
      if (added.length === 0) return parts;
      const answer = await parts;
      return [...(Array.isArray(answer) ? answer : []), ...added];
    }
    return observeBatch(own, added, {
      run: () => Reflect.apply(original, tool, [functionCalls]) as Promise<unknown[]>,
      declared,
      listener,
    });
  }

  const replaced = new Map<string, unknown>([['callTool', markObserved(callTool)]]);
  if (typeof tool.tool === 'function') replaced.set('tool', declarations.read);
  const standIn = forwardingObject(tool, replaced);
  declarations.of(standIn);
  return standIn;
}

interface Batch {
  /** Calls the original with the whole batch. */
  run(): Promise<unknown[]>;
  /** The tool's declarations (`tool()`): each call's description and parameters. */
  readonly declared: unknown;
  readonly listener: ToolCallListener<unknown>;
}

/** The batch run once, each call of `own` observed on its part of the answer; `added` goes after them. */
async function observeBatch(
  own: readonly FunctionCallLike[],
  added: readonly unknown[],
  batch: Batch,
): Promise<unknown[]> {
  // the original's answer to the batch, once it is run: inside the call's span for a batch of one,
  // after every call's span has started for more
  const answer = deferred<unknown[]>();
  // a failed batch reaches the SDK through the calls' outcomes, never as an unhandled rejection
  answer.promise.catch(() => undefined);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    try {
      answer.resolve(batch.run());
    } catch (error) {
      answer.reject(error);
    }
  };
  let attributed: Promise<{ parts: unknown[]; owners: Array<FunctionCallLike | undefined> }> | undefined;
  const attribute = () => {
    attributed ??= answer.promise.then((parts) => {
      const list = Array.isArray(parts) ? parts : [];
      return { parts: list, owners: answeredCalls(list, own) };
    });
    return attributed;
  };
  const slices = new Map<FunctionCallLike, unknown[]>();
  const sliceOf = async (functionCall: FunctionCallLike) => {
    const { parts, owners } = await attribute();
    const slice = parts.filter((_part, index) => owners[index] === functionCall);
    slices.set(functionCall, slice);
    return slice;
  };

  const observed: Array<Promise<unknown>> = [];
  for (const functionCall of own) {
    const name = nameOf(functionCall) as string;
    const { description, parameters } = declarationOf(batch.declared, name);
    try {
      observed.push(
        observeCall(
          {
            definition: { name, description, inputSchema: parameters },
            metadata: {},
            input: argsOf(functionCall),
            toolContext: { toolCallId: idOf(functionCall), framework: FRAMEWORK_GOOGLE_GENAI },
            run: () => {
              if (own.length === 1) start();
              return sliceOf(functionCall);
            },
            failureOf: (result) => toolFailureOf(name, result),
            report: (text) => [functionResponseError(functionCall, name, text)],
          },
          batch.listener,
        ),
      );
    } catch (error) {
      // a listener's beforeCall threw: the batch does not run, the calls already started end with that error
      answer.reject(error);
      await Promise.allSettled(observed);
      throw error;
    }
  }
  start();
  const outcomes = await Promise.allSettled(observed);
  const rethrown = outcomes.find((outcome) => outcome.status === 'rejected');
  if (rethrown !== undefined) throw rethrown.reason;

  const answers = new Map<FunctionCallLike, { parts: unknown[]; replaced: boolean }>();
  own.forEach((functionCall, index) => {
    const value = (outcomes[index] as PromiseFulfilledResult<unknown>).value;
    answers.set(functionCall, {
      parts: Array.isArray(value) ? value : [],
      replaced: value !== slices.get(functionCall),
    });
  });
  // every call answered: a batch that failed had its failure reported for each, and has no parts
  const { parts, owners } = await attribute().catch(() => ({ parts: [], owners: [] }));
  return batchParts(parts, owners, answers, added);
}
