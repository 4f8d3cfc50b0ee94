import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition } from '../../tool-callback.js';
import { FRAMEWORK_PI_AGENT_CORE } from '../frameworks.js';
import type { AgentToolShape, ToolFunction } from './agent-tool.js';

/*
 * Where the hook sits: the tool's `execute(toolCallId, params, signal, onUpdate)`, replaced on a
 * stand-in (forwardingObject) for the app's tool, the app's own object untouched; the original runs
 * with the original tool as `this`, with the arguments the loop gave, `onUpdate` included. The loop
 * calls it once the model's arguments passed the tool's schema and `beforeToolCall` let it run: one
 * `execute_tool` span, the model's call id being `execute`'s first argument, the tool body inside it.
 * What the loop does with the outcome: a value is the tool result; a throw becomes an error tool
 * result (`isError: true`) whose text is the error's message. `'rethrow'` keeps that exactly;
 * `'report'` throws an error whose message is the listener's text, so that the model reads that text
 * in pi's own failed tool result (a value returned would read as a success).
 */

/** Whether `shape`'s execute is already observed (a stand-in of this package, wrapped again). */
export function isObservedShape(shape: AgentToolShape): boolean {
  return isObserved(shape.execute);
}

/**
 * A stand-in for `tool` whose calls `listener` sees; `conversationId` is read at each call (the
 * agent's `sessionId`, where the run has one).
 */
export function observedTool<T extends object>(
  tool: T,
  shape: AgentToolShape,
  listener: ToolCallListener<unknown>,
  conversationId: () => string | undefined = noConversation,
): T {
  const definition: ToolDefinition = {
    name: shape.name,
    description: shape.description,
    inputSchema: shape.parameters,
  };
  const metadata = {};
  const original = shape.execute;

  function execute(this: unknown, ...args: unknown[]): unknown {
    const [toolCallId, params, signal] = args;
    return observeCall(
      {
        definition,
        metadata,
        input: params,
        toolContext: {
          toolCallId: typeof toolCallId === 'string' && toolCallId.length > 0 ? toolCallId : undefined,
          signal: signal instanceof AbortSignal ? signal : undefined,
          framework: FRAMEWORK_PI_AGENT_CORE,
          conversationId: conversationId(),
        },
        // as the loop calls it: `tool.execute(...)`, on the original tool
        run: () => Reflect.apply(original, tool, args),
        report: (text): never => {
          throw new Error(text);
        },
      },
      listener,
    );
  }

  return forwardingObject(tool, new Map([['execute', markObserved(execute as ToolFunction)]]));
}

function noConversation(): undefined {
  return undefined;
}
