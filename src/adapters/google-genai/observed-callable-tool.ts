import { forwardingObject } from '../../internal/forwarding-object.js';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_GOOGLE_GENAI } from '../frameworks.js';
import { type CallableToolLike, declarationOf, declaredNames, type FunctionCallLike } from './callable-tool.js';
import { functionResponseError, toolFailureOf } from './function-responses.js';

/*
 * Where the hook sits: `callTool(functionCalls)`, replaced on a stand-in for the app's CallableTool
 * (its other reads, `tool()` among them, go to the original). The SDK hands it a batch; the stand-in
 * calls the original once per FunctionCall, in order, each call of a function this tool declares inside
 * its own `execute_tool {tool}` span (the function call's `id` when the model gave one), and returns
 * the parts of all of them in that order, as the original would have for the batch. A call of a function
 * it does not declare (`generateContent` hands every CallableTool every call) is passed to the original
 * unobserved: the tool that declares it observes it.
 *
 * What the SDK does with the outcome: the parts are the `functionResponse`s the model reads; a throw
 * rejects `generateContent` (ends the stream). A `functionResponse` whose `response` has an `error`
 * (what `mcpToTool` makes of an MCP `isError` result) is a failure the tool reported (`tool_error`),
 * handed on as it is under `'rethrow'`. `'report'` answers with a `functionResponse` whose `response` is
 * `{ error: <the listener's text> }`, the shape Gemini reads as a failed call.
 */

/** A stand-in for `tool` whose calls `listener` sees. */
export function observedCallableTool<T extends CallableToolLike>(tool: T, listener: ToolCallListener<unknown>): T {
  const original = tool.callTool;
  /** The declarations of `tool()`, read once (the SDK reads them before it calls). */
  let declaration: Promise<unknown> | undefined;
  const declared = () => {
    declaration ??= Promise.resolve()
      .then(() => tool.tool())
      .catch((error: unknown) => {
        logger.error('could not read a CallableTool’s declarations; each of its calls is observed', error);
        return undefined;
      });
    return declaration;
  };

  async function callTool(functionCalls: FunctionCallLike[]): Promise<unknown[]> {
    if (!Array.isArray(functionCalls)) return Reflect.apply(original, tool, [functionCalls]);
    const declarations = await declared();
    const names = declaredNames(declarations);
    const parts: unknown[] = [];
    for (const functionCall of functionCalls) {
      const name = nameOf(functionCall);
      const run = () => Reflect.apply(original, tool, [[functionCall]]) as Promise<unknown[]>;
      if (name === undefined || (names !== undefined && !names.has(name))) {
        parts.push(...((await run()) ?? []));
        continue;
      }
      const { description, parameters } = declarationOf(declarations, name);
      const answer = await observeCall(
        {
          definition: { name, description, inputSchema: parameters },
          metadata: {},
          input: argsOf(functionCall),
          toolContext: { toolCallId: idOf(functionCall), framework: FRAMEWORK_GOOGLE_GENAI },
          run,
          failureOf: (result) => toolFailureOf(name, result),
          report: (text) => [functionResponseError(functionCall, name, text)],
        },
        listener,
      );
      if (Array.isArray(answer)) parts.push(...answer);
    }
    return parts;
  }

  return forwardingObject(tool, new Map([['callTool', markObserved(callTool)]]));
}

function nameOf(call: FunctionCallLike): string | undefined {
  try {
    return typeof call?.name === 'string' ? call.name : undefined;
  } catch {
    return undefined;
  }
}

function idOf(call: FunctionCallLike): string | undefined {
  try {
    return typeof call?.id === 'string' ? call.id : undefined;
  } catch {
    return undefined;
  }
}

function argsOf(call: FunctionCallLike): unknown {
  try {
    return call?.args;
  } catch {
    return undefined;
  }
}
