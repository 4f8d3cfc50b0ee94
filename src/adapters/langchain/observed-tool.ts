import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import type { ToolMessage } from '@langchain/core/messages';
import type { StructuredTool, ToolRunnableConfig } from '@langchain/core/tools';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition, ToolMetadata } from '../../tool-callback.js';
import { FRAMEWORK_LANGCHAIN } from '../frameworks.js';
import { observedCall, thrownByToolFunction } from './rejected-input.js';
import type { LoadToolMessage } from './tool-message.js';

/**
 * Any LangChain structured tool, whatever its schema and output types. `any`, not `unknown`: the
 * generic `invoke`/`call` signatures make `StructuredTool<unknown, ...>` reject every concrete tool.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; the caller's own type is what is returned
export type AnyStructuredTool = StructuredTool<any, any, any, any, any>;

/** `StructuredTool._call`: protected in the typings, the one place every LangChain tool runs its function (a method). */
type ToolFunction = (
  arg: unknown,
  runManager?: CallbackManagerForToolRun,
  parentConfig?: ToolRunnableConfig,
) => unknown;

/*
 * Observed in place, through a stand-in (`forwardingObject`) whose `_call` is observed, rather than
 * `_call` patched on the instance: LangChain reaches `_call` through `this` (`invoke` -> `call` ->
 * `this._call`), so the stand-in's is the one that runs, and the original `_call` then runs with the
 * original tool as `this`. A patch on the instance would change the user's tool for everyone who
 * holds it: a tool shared by two agents with two listeners would report every call to both, and a
 * call of the original tool would be observed too. The stand-in leaves the tool as it was, observed
 * only where it was handed on. What runs with the stand-in as `this` is LangChain's `invoke` and
 * `call` themselves, which read the tool's properties through it, on the original.
 */
export function observedTool<Context>(
  tool: AnyStructuredTool,
  listener: ToolCallListener<Context>,
  toolMessage: LoadToolMessage,
): AnyStructuredTool {
  const definition: ToolDefinition = { name: tool.name, description: tool.description, inputSchema: tool.schema };
  const metadata = toolMetadata(tool);
  const observedToolFunction: ToolFunction = (arg, runManager, parentConfig) => {
    const toolCallId = toolCallIdOf(parentConfig);
    return observeCall(
      {
        definition,
        metadata,
        input: arg,
        toolContext: { toolCallId, signal: parentConfig?.signal, framework: FRAMEWORK_LANGCHAIN },
        run: () => runToolFunction(tool, arg, runManager, parentConfig),
        report: (text) => reportedOutput(tool, text, toolCallId, toolMessage),
      },
      listener,
    );
  };
  return forwardingObject(
    tool,
    new Map<string, unknown>([
      ['_call', markObserved(observedToolFunction)],
      ['call', observedCall(tool, listener as ToolCallListener<unknown>, toolMessage)],
    ]),
  );
}

/**
 * What `_call` returns for a reported failure. With a tool call id, LangChain would wrap the text
 * in a `ToolMessage` with `status: 'success'`: a `ToolMessage` returned by `_call` is passed on as
 * it is, so the failure reaches the model (and LangGraph) marked `status: 'error'`. The class comes
 * from `toolMessage`, on the first reported failure (tool-message.ts); without it, the text.
 */
async function reportedOutput(
  tool: AnyStructuredTool,
  text: string,
  toolCallId: string | undefined,
  toolMessage: LoadToolMessage,
) {
  let content: string | ToolMessage = text;
  const ToolMessage = toolCallId === undefined ? undefined : await toolMessage();
  if (toolCallId !== undefined && ToolMessage !== undefined) {
    content = new ToolMessage({
      status: 'error',
      content: text,
      tool_call_id: toolCallId,
      name: tool.name,
      metadata: tool.metadata,
    });
  }
  // a content_and_artifact tool must return a [content, artifact] pair, or LangChain throws
  return tool.responseFormat === 'content_and_artifact' ? [content, undefined] : content;
}

/**
 * Runs the original tool's function, on the original tool. A streaming tool (one that yields events)
 * is consumed here, as `StructuredTool.call` would, forwarding each event to the run manager: the
 * invocation then lasts as long as the tool runs and ends with the tool's output, not with the
 * generator object.
 */
async function runToolFunction(
  tool: AnyStructuredTool,
  arg: unknown,
  runManager: CallbackManagerForToolRun | undefined,
  parentConfig: ToolRunnableConfig | undefined,
) {
  try {
    // read at each call and called as a method, as LangChain's `this._call(...)` on the original
    const raw = await (tool as unknown as { _call: ToolFunction })._call(arg, runManager, parentConfig);
    return isAsyncGenerator(raw) ? await consumeToolEvents(raw, runManager) : raw;
  } catch (error) {
    // the tool's own failure: `call` must not take it for a rejection of this call's input
    thrownByToolFunction(error);
    throw error;
  }
}

/** LangChain's own test for a streaming tool result (`isAsyncGenerator` in `@langchain/core/runnables/iter`). */
function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { next?: unknown }).next === 'function';
}

async function consumeToolEvents(
  generator: AsyncGenerator<unknown, unknown>,
  runManager: CallbackManagerForToolRun | undefined,
): Promise<unknown> {
  try {
    let step = await generator.next();
    while (!step.done) {
      try {
        await runManager?.handleToolEvent?.(step.value);
      } catch (callbackError) {
        // as StructuredTool.call: a failing event handler is reported, the tool goes on
        await runManager?.handleToolError(callbackError);
      }
      step = await generator.next();
    }
    return step.value;
  } finally {
    await generator.return?.(undefined);
  }
}

function toolCallIdOf(config: ToolRunnableConfig | undefined): string | undefined {
  const id = config?.toolCall?.id;
  return typeof id === 'string' ? id : undefined;
}

function toolMetadata(tool: AnyStructuredTool): ToolMetadata {
  const { metadata } = tool as { metadata?: unknown };
  const own = metadata !== null && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : {};
  return Object.freeze({ ...own, returnDirect: tool.returnDirect === true });
}
